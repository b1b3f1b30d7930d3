// One value per key object (the service's deps, its config, its database), made on first use and
// dropped with the key: how a service instance's shared parts are found by whoever needs them.
export function onePer<K extends object, V>(create: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = create(key)));
    return value;
  };
}

// What an attribute takes in a template (React JSX, Vue), from the type of the property it sets: a
// boolean attribute is present or not, a number may be written as text, a union of words stays that union.
export type AttributeValue<T> =
  NonNullable<T> extends boolean
    ? boolean
    : NonNullable<T> extends number
      ? number | string
      : NonNullable<T> extends string
        ? NonNullable<T>
        : string;

// Finding a program by name on a search path (PATH syntax), as a shell would, without running one.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Windows runs `name.exe` for `name`; elsewhere the name is the file. */
const executableName = (name: string) => (process.platform === 'win32' && !/\.[a-z]{3}$/i.test(name) ? `${name}.exe` : name);

/** Whether `path` is a file this process may run. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Full path of `name` in the first directory of `searchPath` that has it executable, or undefined. */
export function findTool(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, executableName(name));
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

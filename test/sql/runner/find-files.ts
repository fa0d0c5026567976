/**
 * Finds sqllogictest files (`*.test`) under a folder, sorted, as paths relative to it.
 */
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Every `*.test` file below `root` (recursively), relative to `root`, in sorted order. */
export function findSltFiles(root: string): string[] {
  const found: string[] = []
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile() && e.name.endsWith('.test')) found.push(relative(root, p))
    }
  }
  walk(root)
  return found.sort()
}

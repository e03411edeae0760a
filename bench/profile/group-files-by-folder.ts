/** Repository-relative file paths grouped by their folder, both sorted (pure). */
export function groupFilesByFolder(files: readonly string[]): Record<string, string[]> {
  const folders: Record<string, string[]> = {};
  for (const file of [...files].sort()) {
    const slash = file.lastIndexOf('/');
    const folder = slash === -1 ? '.' : file.slice(0, slash);
    (folders[folder] ??= []).push(file.slice(slash + 1));
  }
  return folders;
}

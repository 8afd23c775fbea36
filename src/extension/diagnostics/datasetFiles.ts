// Which linted files name which datasets (as their last lint reported), so that when a dataset's live
// columns arrive only the files naming it are linted again, not every file. No vscode import.

export class DatasetFiles {
  private readonly byFile = new Map<string, readonly string[]>();
  private readonly byDataset = new Map<string, Set<string>>();

  /** The datasets `file` names now (replacing what it named before). */
  set(file: string, datasets: readonly string[]): void {
    this.delete(file);
    if (datasets.length === 0) return;
    this.byFile.set(file, datasets);
    for (const d of datasets) {
      let files = this.byDataset.get(d);
      if (files === undefined) this.byDataset.set(d, (files = new Set()));
      files.add(file);
    }
  }

  delete(file: string): void {
    for (const d of this.byFile.get(file) ?? []) {
      const files = this.byDataset.get(d);
      files?.delete(file);
      if (files?.size === 0) this.byDataset.delete(d);
    }
    this.byFile.delete(file);
  }

  /** The files naming any of `datasets`, each once. */
  naming(datasets: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const d of datasets) for (const f of this.byDataset.get(d) ?? []) out.add(f);
    return out;
  }

  clear(): void {
    this.byFile.clear();
    this.byDataset.clear();
  }
}

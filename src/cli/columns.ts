// `obs lint --columns-from-service`: the columns of each dataset the files name, read once from
// the service, handed to the linter as data. A dataset the service does not know is not checked.
import type { ServiceClient } from '../api/client';
import { isServiceNotFound } from '../api/errors';
import type { DatasetColumns } from '../lint';
import { PacedPool } from '../triggerFiles';

export interface ServiceColumns {
  columns: Record<string, DatasetColumns>;
  /** Datasets the service does not know (404): their columns are not checked. */
  missing: string[];
}

/** Reads the columns of each dataset (`__all__` for environment-wide triggers); any failure but a 404 rejects. */
export async function readColumns(
  client: Pick<ServiceClient, 'listColumns'>,
  datasets: readonly string[],
  concurrency = 4,
): Promise<ServiceColumns> {
  const pool = new PacedPool({ concurrency });
  const out: ServiceColumns = { columns: {}, missing: [] };
  await Promise.all(
    [...new Set(datasets)].sort().map(async (dataset) => {
      try {
        const res = await pool.run((signal) => client.listColumns(dataset, { signal }));
        out.columns[dataset] = {
          names: res.data.map((c) => c.key_name),
          hidden: res.data.filter((c) => c.hidden).map((c) => c.key_name),
        };
      } catch (err) {
        // A 404 of a web page is not a dataset the service lacks: another server answered (the run says so).
        if (!isServiceNotFound(err)) throw err;
        out.missing.push(dataset);
      }
    }),
  );
  out.missing.sort();
  return out;
}

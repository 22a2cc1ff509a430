// One line that says where an import stands, for the command line and logs.
import type { ImportJobView } from './jobs.js';

export function formatProgress(job: ImportJobView): string {
  const of = job.total !== null ? `/${job.total.toLocaleString('en')}` : '';
  const kinds = Object.entries(job.counts)
    .map(([kind, c]) => {
      const parts = Object.entries(c)
        .filter(([, n]) => n > 0)
        .map(([outcome, n]) => `${n} ${outcome}`);
      return parts.length ? `${kind}: ${parts.join(', ')}` : '';
    })
    .filter(Boolean)
    .join('; ');
  const phase = job.phase ? ` ${job.phase}` : '';
  const what = job.changesOnly ? 'changed records (since the last import)' : 'records';
  return `import ${job.id} ${job.status}${phase}: ${job.processed.toLocaleString('en')}${of} ${what}${kinds ? ` (${kinds})` : ''}`;
}

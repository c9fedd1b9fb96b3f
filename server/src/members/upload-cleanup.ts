import type { AppConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { UploadDeletionStore } from '../store/index.js';
import type { UploadService } from '../uploads/service.js';

/** Cancelled accounts whose files one pass deletes, at most. */
const CLEANUP_BATCH = 20;

/** What {@link createUploadCleanup} needs. */
export interface UploadCleanupDeps {
  deletions: UploadDeletionStore;
  uploads: Pick<UploadService, 'removeProductFiles'>;
  /** The product app, whose members' keys the files have; without it nothing is deleted. */
  app: AppConfig | undefined;
  logger: Logger;
}

/**
 * MEM-7: deletes from the upload storage the files of cancelled accounts that the cancellation's transaction left
 * waiting (`upload_deletions`). A pass runs right after each cancellation and in each node's sweep; passes run one at
 * a time on a node, and a failure leaves the account's row for the next one. Deleting a file twice is no error, so
 * two nodes passing at once do no harm.
 */
export function createUploadCleanup(deps: UploadCleanupDeps): { run(): Promise<number> } {
  let last: Promise<number> = Promise.resolve(0);
  const pass = async (): Promise<number> => {
    const app = deps.app;
    if (!app) return 0;
    let files = 0;
    for (const deletion of await deps.deletions.pending(CLEANUP_BATCH)) {
      try {
        const { memberId, refs, kept } = deletion;
        files += await deps.uploads.removeProductFiles({ app, memberId, refs, kept });
        await deps.deletions.done(deletion.memberId);
      } catch (err) {
        deps.logger.error({ err, memberId: deletion.memberId }, 'deleting a cancelled account’s files failed');
      }
    }
    return files;
  };
  return {
    /** One pass, after the one running; how many files it deleted. */
    run() {
      last = last.then(pass, pass);
      return last;
    },
  };
}

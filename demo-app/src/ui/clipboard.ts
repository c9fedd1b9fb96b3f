import { toast, toastError } from './toast';

/**
 * Copies `text` and says so with `copied`; where there is no clipboard (an insecure page, or refused) says `failed`
 * instead, which should tell where the text is to copy by hand.
 */
export async function copyText(text: string, copied: string, failed: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast(copied);
  } catch {
    toastError(failed);
  }
}

import { Dialog } from 'antd-mobile';
import type { TFunction } from 'i18next';
import { errorText } from '../api/errors';
import { isRefusal } from '../api/request';
import { toastError } from '../../ui/toast';

/**
 * Tells the anchor why the server refused: a member not certified yet is offered certification (member/renzheng);
 * anything else is toasted in the app's words.
 */
export async function showAnchorRefusal(error: unknown, t: TFunction, open: (target: string) => void): Promise<void> {
  if (isRefusal(error) && error.code === 'live_cert_required') {
    const go = await Dialog.confirm({
      content: t('errors.live_cert_required'),
      confirmText: t('live.toCert'),
      cancelText: t('common.cancel'),
    });
    if (go) open('member/renzheng');
    return;
  }
  toastError(errorText(error, t));
}

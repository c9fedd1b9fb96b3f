import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { nameOf, type CsSessionView } from './status';

/** Whose screen the status line is on: the customer's chat or the agent console. */
export type CsPerspective = 'customer' | 'agent';

/** The words for a session state, for the customer or for an agent (`me`). */
export function statusText(view: CsSessionView, perspective: CsPerspective, me: string, t: TFunction): string {
  const customer = perspective === 'customer';
  switch (view.kind) {
    case 'none':
      return customer ? t('cs.statusNone') : t('cs.statusNoneAgent');
    case 'waiting':
      return customer ? t('cs.statusWaiting') : t('cs.statusWaitingAgent');
    case 'served': {
      const name = nameOf(view.agent?.data) || view.agent?.id || '';
      if (customer) return name ? t('cs.statusServedBy', { name }) : t('cs.statusServed');
      return view.agent?.id === me ? t('cs.statusServedByMe') : t('cs.statusServedByOther', { name });
    }
    case 'ended':
      return t('cs.statusEnded');
  }
}

/** One line under the chat's title: waiting, being served by whom, or ended. */
export function CsStatusLine({
  view,
  perspective,
  me,
}: {
  view: CsSessionView;
  perspective: CsPerspective;
  me: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={`cs-status cs-status-${view.kind}`} role="status" data-testid="cs-status" data-kind={view.kind}>
      {statusText(view, perspective, me, t)}
    </div>
  );
}

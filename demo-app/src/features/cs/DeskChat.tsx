import { ActionSheet, Button, Dialog } from 'antd-mobile';
import type { TFunction } from 'i18next';
import type { CsUser } from 'parley-im';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { toast, toastError } from '../../ui/toast';
import { errorText } from '../im/errors';
import { Composer } from '../im/Composer';
import { useReadMarks } from './ChatParts';
import { CsMessageList } from './CsMessageList';
import { CsStatusLine } from './CsStatusLine';
import type { CsDesk } from './desk';
import { useLive } from './live';
import { agentView, nameOf } from './status';

/** A customer's name to show. */
export function customerName(customer: CsUser, t: TFunction): string {
  return nameOf(customer.data) || t('cs.customer', { id: customer.id });
}

/**
 * One customer in the console: their status, the conversation, and what I can do: accept while they wait; while I
 * serve them, write, transfer to another online agent, or end.
 */
export function DeskChat({
  desk,
  customer,
  emoji,
  onBack,
}: {
  desk: CsDesk;
  customer: CsUser;
  emoji: Record<string, string> | undefined;
  /** Back to the customer list (small screens). */
  onBack: () => void;
}) {
  const { t } = useTranslation();
  // One chat (and live session) per customer; their data only names the target of my messages.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const chat = useMemo(() => desk.chat(customer), [desk, customer.id]);
  const state = useLive(chat);
  const view = state.status ? agentView(state.status, state.messages.length > 0) : undefined;
  const serving = view?.kind === 'served' && view.agent?.id === desk.me;
  // A waiting customer's typing reaches every online agent (TYPING-4), as their messages do; a customer another agent
  // serves is theirs to hear.
  const hearsTyping = serving || view?.kind === 'waiting';
  const markRead = useMemo(() => () => (serving ? chat.markRead() : Promise.resolve()), [chat, serving]);
  useReadMarks(state, desk.me, markRead);
  const run = (work: Promise<unknown>) => work.catch((e: unknown) => toastError(errorText(e, t)));

  const transfer = async () => {
    let agents: CsUser[];
    try {
      agents = await desk.otherAgents();
    } catch (e) {
      return toastError(errorText(e, t));
    }
    if (agents.length === 0) return toast(t('cs.noOtherAgents'));
    const sheet = ActionSheet.show({
      extra: t('cs.transferTo'),
      cancelText: t('common.cancel'),
      actions: agents.map((agent) => ({
        key: agent.id,
        text: nameOf(agent.data) || agent.id,
        onClick: () => {
          sheet.close();
          const name = nameOf(agent.data) || agent.id;
          void run(desk.transfer(customer.id, agent.id).then(() => toast(t('cs.transferred', { name }))));
        },
      })),
    });
  };

  const end = async () => {
    const ok = await Dialog.confirm({
      content: t('cs.endConfirm'),
      confirmText: t('cs.end'),
      cancelText: t('common.cancel'),
    });
    if (ok) await run(desk.end(customer.id));
  };

  return (
    <section className="cs-chat" data-testid="cs-chat" data-customer={customer.id}>
      <header className="cs-chat-header">
        <Button className="cs-back" size="small" fill="none" onClick={onBack}>
          ‹ {t('cs.customers')}
        </Button>
        <span className="cs-chat-name">{customerName(customer, t)}</span>
        <span className="cs-actions">
          {view?.kind === 'waiting' && (
            <Button size="small" color="primary" onClick={() => void run(desk.accept(customer))}>
              {t('cs.accept')}
            </Button>
          )}
          {serving && (
            <>
              <Button size="small" onClick={() => void transfer()}>
                {t('cs.transfer')}
              </Button>
              <Button size="small" color="danger" fill="outline" onClick={() => void end()}>
                {t('cs.end')}
              </Button>
            </>
          )}
        </span>
      </header>
      {view && <CsStatusLine view={view} perspective="agent" me={desk.me} />}
      <CsMessageList
        messages={state.messages}
        me={desk.me}
        emoji={emoji}
        loading={state.loading}
        hasMore={state.hasMore}
        onLoadMore={() => void chat.loadMore()}
        onRetry={(m) => void run(chat.retry(m))}
      />
      {hearsTyping && state.typing && (
        <div className="typing-line" role="status">
          {t('cs.customerTyping')}
        </div>
      )}
      {serving && (
        <Composer
          emoji={emoji}
          onSend={(text) => void run(chat.sendText(text))}
          onTooLong={() => toastError(t('im.textTooLong'))}
          onTyping={() => chat.keystroke()}
          onStopTyping={() => chat.stopTyping()}
        />
      )}
    </section>
  );
}

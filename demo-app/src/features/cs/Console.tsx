import { Avatar, Badge, Button, List, Switch, Tag } from 'antd-mobile';
import type { CsUser } from 'parley-im';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { errorText } from '../im/errors';
import { relativeTime } from '../im/time';
import { useNow } from '../im/useNow';
import type { CsDesk, DeskCustomer } from './desk';
import { DeskChat, customerName } from './DeskChat';
import { useLive } from './live';
import { csPreview } from './preview';
import './cs.css';

/** Props of {@link CsConsole}. */
export interface CsConsoleProps {
  desk: CsDesk;
  /** The customer shown in the chat pane, if any. */
  selectedId: string | undefined;
  onSelect: (customerId: string | undefined) => void;
  emoji: Record<string, string> | undefined;
}

/** A row of the pending list or of my customers. */
function CustomerRow({
  customer,
  me,
  selected,
  testId,
  extra,
  onClick,
}: {
  customer: DeskCustomer;
  me: string;
  selected: boolean;
  testId: string;
  extra: React.ReactNode;
  onClick: () => void;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const avatar = customer.data['avatar'];
  const last = customer.lastMessage;
  return (
    <List.Item
      className={selected ? 'cs-row selected' : 'cs-row'}
      data-testid={testId}
      data-customer={customer.id}
      prefix={
        <Badge content={customer.unread > 0 ? (customer.unread > 99 ? '99+' : customer.unread) : null}>
          <Avatar
            src={typeof avatar === 'string' ? avatar : ''}
            style={{ '--size': '40px', '--border-radius': '50%' }}
          />
        </Badge>
      }
      description={last ? <span className="preview">{csPreview(last, me, t)}</span> : null}
      extra={
        <div className="cs-row-extra">
          {last && <span className="time">{relativeTime(last.timestamp, now, t, i18n.language)}</span>}
          {extra}
        </div>
      }
      onClick={onClick}
    >
      {customerName(customer, t)}
    </List.Item>
  );
}

/**
 * The agent console of one team (spec §6): the online switch, customers waiting (live) with accept, my customers
 * (served and ended), and the chosen customer's conversation. Side by side from 768 px wide; on a phone the list
 * and the chat are screens of their own.
 */
export function CsConsole({ desk, selectedId, onSelect, emoji }: CsConsoleProps) {
  const { t } = useTranslation();
  const state = useLive(desk.state);
  const [switching, setSwitching] = useState(false);
  const selected: CsUser | undefined =
    selectedId === undefined
      ? undefined
      : ([...state.pending, ...state.mine].find((c) => c.id === selectedId) ?? { id: selectedId, data: {} });

  const setOnline = async (online: boolean) => {
    // CS-2: the server refuses this too; saying so here is quicker and in the user's language.
    if (!online && state.mine.some((c) => !c.ended)) return toastError(t('cs.offlineWithCustomers'));
    setSwitching(true);
    try {
      await desk.setOnline(online);
    } catch (e) {
      toastError(errorText(e, t));
    } finally {
      setSwitching(false);
    }
  };

  const accept = async (customer: DeskCustomer) => {
    try {
      await desk.accept(customer);
      onSelect(customer.id);
    } catch (e) {
      toastError(errorText(e, t));
    }
  };

  return (
    <div className={selected ? 'cs-console has-selection' : 'cs-console'} data-testid="cs-console">
      <aside className="cs-side">
        <List>
          <List.Item
            extra={
              <Switch
                checked={state.online === true}
                loading={switching || state.online === undefined}
                onChange={(on) => void setOnline(on)}
                aria-label={t('cs.online')}
              />
            }
            description={state.online === false ? t('cs.offlineHint') : null}
          >
            {t('cs.online')}
          </List.Item>
        </List>
        {state.error && (
          <div className="connection-banner" role="alert">
            {errorText(state.error, t)}
          </div>
        )}
        <List header={t('cs.pending', { count: state.pending.length })}>
          {state.pending.length === 0 ? (
            <List.Item className="empty">{t('cs.pendingEmpty')}</List.Item>
          ) : (
            state.pending.map((c) => (
              <CustomerRow
                key={c.id}
                customer={c}
                me={desk.me}
                selected={c.id === selectedId}
                testId="cs-pending"
                onClick={() => onSelect(c.id)}
                extra={
                  <Button
                    size="mini"
                    color="primary"
                    onClick={(e) => {
                      e.stopPropagation();
                      void accept(c);
                    }}
                  >
                    {t('cs.accept')}
                  </Button>
                }
              />
            ))
          )}
        </List>
        <List header={t('cs.mine')}>
          {state.mine.length === 0 ? (
            <List.Item className="empty">{t('cs.mineEmpty')}</List.Item>
          ) : (
            state.mine.map((c) => (
              <CustomerRow
                key={c.id}
                customer={c}
                me={desk.me}
                selected={c.id === selectedId}
                testId="cs-customer"
                onClick={() => onSelect(c.id)}
                extra={c.ended ? <Tag color="default">{t('cs.endedTag')}</Tag> : null}
              />
            ))
          )}
        </List>
      </aside>
      <main className="cs-main">
        {selected ? (
          <DeskChat
            key={selected.id}
            desk={desk}
            customer={selected}
            emoji={emoji}
            onBack={() => onSelect(undefined)}
          />
        ) : (
          <div className="cs-placeholder">{t('cs.chooseCustomer')}</div>
        )}
      </main>
    </div>
  );
}

import { Button, List } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../api/errors';
import { toastError } from '../../ui/toast';
import { setHidden, type HideName } from './hide';

/**
 * An item of a feed the signed-in member may hide ("Not interested", spec §7 `member/yinbi`): `children` gets the
 * button that hides it (none when `enabled` is false or no one is signed in). Hidden, the item gives way to a line
 * saying so, with Undo; the feeds leave it out from then on.
 */
export function Hideable({
  name,
  id,
  enabled,
  children,
}: {
  name: HideName;
  id: string;
  enabled: boolean;
  children: (hide: ReactNode) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [hidden, setHiddenState] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!enabled || !user) return <>{children(null)}</>;
  const change = async (hide: boolean) => {
    setBusy(true);
    try {
      await setHidden(name, id, hide, { token: user.token, locale: i18n.language });
      setHiddenState(hide);
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };
  if (hidden) {
    return (
      <List.Item
        data-testid="hidden-item"
        className="hidden-item"
        extra={
          <Button size="mini" fill="none" color="primary" loading={busy} onClick={() => void change(false)}>
            {t('hide.undo')}
          </Button>
        }
      >
        {t('hide.done')}
      </List.Item>
    );
  }
  return (
    <>
      {children(
        <button
          type="button"
          className="hide-button"
          aria-label={t('hide.action')}
          title={t('hide.action')}
          disabled={busy}
          onClick={(event) => {
            // Inside a line that opens the item: hiding does not open it.
            event.stopPropagation();
            void change(true);
          }}
        >
          <CloseOutline />
        </button>,
      )}
    </>
  );
}

import { Button, Checkbox, Dialog, List, Radio, TextArea } from 'antd-mobile';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { HOME_PATH } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { cancelAccount } from '../../features/member/api';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import './out.css';

/** The reasons offered; `other` asks for the member's own words. Sent as these keys, or as those words. */
const REASONS = ['unused', 'another', 'privacy', 'other'] as const;
type Reason = (typeof REASONS)[number];
const REASON_LABEL = {
  unused: 'out.reasonUnused',
  another: 'out.reasonAnother',
  privacy: 'out.reasonPrivacy',
  other: 'out.reasonOther',
} as const satisfies Record<Reason, string>;

/** The longest reason the server takes, in characters. */
const REASON_MAX_LENGTH = 200;

/** What the form holds, kept in the page's history entry while the agreement is read. */
interface OutDraft {
  reason?: Reason;
  other: string;
  agree: boolean;
}

/** The draft kept in a history entry's state, field by field: the state may come from elsewhere. */
function draftOf(state: unknown): OutDraft {
  const draft = (state as { outDraft?: Partial<Record<keyof OutDraft, unknown>> } | null)?.outDraft ?? {};
  const reason = REASONS.find((key) => key === draft.reason);
  return {
    ...(reason ? { reason } : {}),
    other: typeof draft.other === 'string' ? draft.other : '',
    agree: draft.agree === true,
  };
}

/**
 * Account cancellation (spec §2 member/out, §5: a reason and agreement to the cancellation agreement). After a
 * confirmation the account is cancelled on the server, the app signs out without keeping a copy of the user, and
 * home opens.
 */
export default function CancelAccount() {
  const { t, i18n } = useTranslation();
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [saved] = useState(() => draftOf(location.state));
  const [reason, setReason] = useState<Reason | undefined>(saved.reason);
  const [other, setOther] = useState(saved.other);
  const [agree, setAgree] = useState(saved.agree);
  const [busy, setBusy] = useState(false);
  if (!user) return null;

  const openAgreement = (event: MouseEvent) => {
    // Inside the checkbox's label: the link opens the document and leaves the box as it was.
    event.preventDefault();
    event.stopPropagation();
    // Back from the agreement finds the form as it was left.
    const outDraft: OutDraft = { ...(reason ? { reason } : {}), other, agree };
    void navigate({ pathname: location.pathname }, { replace: true, state: { outDraft } });
    void navigate('/public/cancellation');
  };

  const submit = async () => {
    const text = reason === 'other' ? other.trim() : reason;
    if (!text) return toastError(t('out.reasonRequired'));
    if (!agree) return toastError(t('out.agreeRequired'));
    const ok = await Dialog.confirm({
      content: t('out.confirm'),
      confirmText: t('out.submit'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      await cancelAccount(text, { token: user.token, locale: i18n.language });
    } catch (error) {
      setBusy(false);
      return toastError(errorText(error, t));
    }
    signOut({ forget: true });
    void navigate(HOME_PATH, { replace: true });
    toast(t('out.done'));
  };

  return (
    <div className="page">
      <NavBar title={t('out.title')} />
      <p className="out-warning" role="note">
        {t('out.warning')}
      </p>
      <List header={t('out.reason')}>
        <Radio.Group value={reason} onChange={(value) => setReason(value as Reason)}>
          {REASONS.map((key) => (
            <List.Item key={key}>
              <Radio value={key}>{t(REASON_LABEL[key])}</Radio>
            </List.Item>
          ))}
        </Radio.Group>
        {reason === 'other' && (
          <List.Item>
            <TextArea
              id="out-other"
              placeholder={t('out.otherPlaceholder')}
              value={other}
              onChange={setOther}
              maxLength={REASON_MAX_LENGTH}
              showCount
              autoSize={{ minRows: 2, maxRows: 5 }}
            />
          </List.Item>
        )}
      </List>
      <div className="page-actions">
        <Checkbox className="out-agree" checked={agree} onChange={setAgree}>
          {t('out.agree')}{' '}
          <a href="#/public/cancellation" onClick={openAgreement}>
            {t('out.agreement')}
          </a>
        </Checkbox>
        <Button block color="danger" loading={busy} onClick={() => void submit()}>
          {t('out.submit')}
        </Button>
      </div>
    </div>
  );
}

import { Button, Popup, Selector, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../api/errors';
import { toast, toastError } from '../../ui/toast';
import { REPORT_MAX, REPORT_REASONS, reportContent, type ReportKind, type ReportReason } from './reports';

/**
 * The sheet to report an article, a circle post, a comment or a member (spec §1 "report"): a reason, and the member's
 * own words if they like; sent as "<reason>: <words>". `onClose` closes it.
 */
export function ReportSheet({
  kind,
  targetId,
  visible,
  onClose,
}: {
  kind: ReportKind;
  targetId: string;
  visible: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [reason, setReason] = useState<ReportReason | undefined>(undefined);
  const [words, setWords] = useState('');
  const [sending, setSending] = useState(false);

  const send = async () => {
    if (!reason) return toastError(t('report.reasonRequired'));
    const content = [t(`report.reason_${reason}`), words.trim()].filter((part) => part !== '').join(': ');
    if ([...content].length > REPORT_MAX) return toastError(t('report.tooLong', { max: REPORT_MAX }));
    setSending(true);
    try {
      await reportContent(kind, targetId, content, { token: user?.token, locale: i18n.language });
      toast(t('report.sent'));
      setReason(undefined);
      setWords('');
      onClose();
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} showCloseButton onClose={onClose} bodyClassName="report-sheet">
      <h2>{kind === 'user' ? t('report.titleUser') : t('report.title')}</h2>
      <Selector
        columns={2}
        value={reason ? [reason] : []}
        onChange={(values) => setReason(values[0])}
        options={REPORT_REASONS.map((value) => ({ value, label: t(`report.reason_${value}`) }))}
      />
      <label htmlFor="report-words" className="visually-hidden">
        {t('report.placeholder')}
      </label>
      <TextArea
        id="report-words"
        placeholder={t('report.placeholder')}
        value={words}
        onChange={setWords}
        autoSize={{ minRows: 3, maxRows: 6 }}
      />
      <Button block color="primary" loading={sending} onClick={() => void send()}>
        {t('report.send')}
      </Button>
    </Popup>
  );
}

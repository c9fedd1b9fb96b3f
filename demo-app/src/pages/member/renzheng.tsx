import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, Input, List, Result, Selector } from 'antd-mobile';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { UploadProgress } from '../../features/api/ImagePicker';
import { useImageUpload } from '../../features/api/useImageUpload';
import {
  CERTIFICATION_QUERY,
  CERT_IMAGES,
  CERT_NAME_MAX,
  certificationInfo,
  certificationProblem,
  submitCertification,
  type Certification,
  type CertificationType,
} from '../../features/member/certification';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import './feedback.css';

/** The photo slots of each kind: their labels' keys, the required ones first. */
const SLOTS: Record<CertificationType, readonly string[]> = {
  personal: ['cert.idFront', 'cert.idBack'],
  enterprise: ['cert.licence', 'cert.licenceMore'],
};

/** What was submitted, as the member sees it: the kind, the name, the masked number and when. */
function Submitted({ certification }: { certification: Certification }) {
  const { t, i18n } = useTranslation();
  return (
    <List>
      <List.Item extra={t(`cert.${certification.type}`)}>{t('cert.type')}</List.Item>
      <List.Item extra={certification.name}>{t(`cert.name_${certification.type}`)}</List.Item>
      <List.Item extra={certification.number}>{t(`cert.number_${certification.type}`)}</List.Item>
      <List.Item extra={new Date(certification.submitted_at).toLocaleString(i18n.language)}>
        {t('cert.submittedAt')}
      </List.Item>
    </List>
  );
}

/** The form: personal or enterprise, the name, the number and the photos, each uploaded as it is picked. */
function CertificationForm({ onSubmitted }: { onSubmitted: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const { progress, upload } = useImageUpload();
  const picker = useRef<HTMLInputElement>(null);
  const [slot, setSlot] = useState(0);
  const [type, setType] = useState<CertificationType>('personal');
  const [name, setName] = useState('');
  const [number, setNumber] = useState('');
  const [imgs, setImgs] = useState<(string | undefined)[]>([]);
  const [sending, setSending] = useState(false);

  const pick = (index: number) => {
    setSlot(index);
    picker.current?.click();
  };
  const picked = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const url = await upload(file);
    if (url !== undefined) setImgs((list) => Object.assign([...list], { [slot]: url }));
  };

  const send = async () => {
    const draft = { type, name, number, imgs: imgs.filter((url): url is string => url !== undefined) };
    const problem = certificationProblem(draft);
    if (problem === 'name') return toastError(t(`cert.nameInvalid_${type}`, { max: CERT_NAME_MAX[type] }));
    if (problem === 'number') return toastError(t(`cert.numberInvalid_${type}`));
    if (problem === 'images') return toastError(t(`cert.imagesMissing_${type}`));
    setSending(true);
    try {
      await submitCertification(draft, { token: user?.token, locale: i18n.language });
      toast(t('cert.submitted'));
      await onSubmitted();
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };

  const switchType = (next: CertificationType) => {
    setType(next);
    setImgs([]);
  };

  return (
    <>
      <List header={t('cert.type')}>
        <List.Item>
          <Selector
            columns={2}
            value={[type]}
            onChange={(values) => values[0] && switchType(values[0])}
            options={(['personal', 'enterprise'] as const).map((value) => ({ value, label: t(`cert.${value}`) }))}
          />
        </List.Item>
      </List>
      <List>
        <List.Item title={<label htmlFor="cert-name">{t(`cert.name_${type}`)}</label>}>
          <Input id="cert-name" value={name} onChange={setName} placeholder={t(`cert.namePlaceholder_${type}`)} />
        </List.Item>
        <List.Item title={<label htmlFor="cert-number">{t(`cert.number_${type}`)}</label>}>
          <Input
            id="cert-number"
            value={number}
            onChange={setNumber}
            maxLength={18}
            placeholder={t(`cert.numberPlaceholder_${type}`)}
          />
        </List.Item>
      </List>
      <List header={t(`cert.photos_${type}`, { max: CERT_IMAGES[type].max })}>
        <List.Item>
          <div className="feedback-images">
            {SLOTS[type].map((label, index) => {
              const url = imgs[index];
              return (
                <button
                  key={label}
                  type="button"
                  className="cert-slot"
                  aria-label={t(label)}
                  disabled={progress !== undefined}
                  onClick={() => pick(index)}
                >
                  {url ? <img className="feedback-thumb" src={url} alt="" /> : <span className="cert-slot-add">+</span>}
                  <span className="cert-slot-label">{t(label)}</span>
                </button>
              );
            })}
          </div>
          <UploadProgress percent={progress} testId="cert-progress" />
        </List.Item>
      </List>
      <input
        ref={picker}
        type="file"
        accept="image/gif,image/jpeg,image/png"
        hidden
        data-testid="cert-picker"
        onChange={(event) => void picked(event)}
      />
      <p className="cert-note muted">{t('cert.privacyNote')}</p>
      <div className="page-actions">
        <Button block color="primary" loading={sending} disabled={progress !== undefined} onClick={() => void send()}>
          {t('cert.submit')}
        </Button>
      </div>
    </>
  );
}

/**
 * Real-name certification (spec §2 member/renzheng, §4): personal (real name, identity card number, the card's two
 * sides) or enterprise (name, unified social credit code, the business licence). Under review (1 to 3 working days)
 * it shows what was sent; a failure shows its reason over the form to send again; once passed, the member is
 * certified.
 */
export default function CertificationPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [CERTIFICATION_QUERY, user?.id],
    queryFn: () => certificationInfo({ token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;

  const submitted = async () => {
    await queryClient.invalidateQueries({ queryKey: [CERTIFICATION_QUERY] });
  };

  let body;
  if (query.isPending) body = <DelayedLoading />;
  else if (query.isError) {
    body = (
      <ErrorBlock status="default" title={errorText(query.error, t)} description="">
        <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
      </ErrorBlock>
    );
  } else if (query.data?.status === 'pending') {
    body = (
      <>
        <Result status="waiting" title={t('cert.pending')} description={t('cert.pendingHint')} />
        <Submitted certification={query.data} />
      </>
    );
  } else if (query.data?.status === 'passed') {
    body = (
      <>
        <Result status="success" title={t('cert.passed')} description={t('cert.passedHint')} />
        <Submitted certification={query.data} />
      </>
    );
  } else {
    body = (
      <>
        {query.data?.status === 'failed' && (
          <div className="blocked-banner" role="alert">
            {t('cert.failed', { reason: query.data.reason })}
          </div>
        )}
        <CertificationForm onSubmitted={submitted} />
      </>
    );
  }

  return (
    <div className="page">
      <NavBar title={t('cert.title')} />
      {body}
    </div>
  );
}

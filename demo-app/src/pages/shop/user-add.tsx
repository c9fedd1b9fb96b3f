import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, List, Result, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { QueryView } from '../../features/api/QueryView';
import { UploadProgress, useImagePicker } from '../../features/api/ImagePicker';
import {
  SHOP_INTRO_MAX,
  SHOP_NAME_MAX,
  SHOP_QUERY,
  applyForShop,
  shopInfo,
  shopProblem,
  type Shop,
  type ShopInfo,
} from '../../features/shop/api';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../member/feedback.css';
import './shop.css';

/** What was sent, as the member sees it while it is reviewed or once approved. */
function Application({ shop }: { shop: Shop }) {
  const { t, i18n } = useTranslation();
  return (
    <List>
      <List.Item extra={<img className="shop-head-icon" src={shop.icon} alt="" />}>{t('shop.icon')}</List.Item>
      <List.Item extra={shop.name}>{t('shop.name')}</List.Item>
      <List.Item description={shop.intro}>{t('shop.intro')}</List.Item>
      <List.Item extra={new Date(shop.submitted_at).toLocaleString(i18n.language)}>{t('shop.submittedAt')}</List.Item>
    </List>
  );
}

/** The form: the icon, uploaded as it is picked, the name and the description; a rejected one's values to correct. */
function ApplicationForm({ previous, onSubmitted }: { previous: Shop | null; onSubmitted: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [icon, setIcon] = useState(previous?.icon ?? '');
  const [name, setName] = useState(previous?.name ?? '');
  const [intro, setIntro] = useState(previous?.intro ?? '');
  const [sending, setSending] = useState(false);

  const { progress, pick, input } = useImagePicker({ onUploaded: setIcon, testId: 'shop-picker' });

  const send = async () => {
    const draft = { name: name.trim(), icon, intro: intro.trim() };
    const problem = shopProblem(draft);
    if (problem) return toastError(t(`errors.${problem}`));
    setSending(true);
    try {
      await applyForShop(draft, { token: user?.token, locale: i18n.language });
      toast(t('shop.submitted'));
      await onSubmitted();
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <List>
        <List.Item title={t('shop.icon')} description={<UploadProgress percent={progress} testId="shop-progress" />}>
          <button
            type="button"
            className="shop-icon-slot"
            aria-label={t('shop.icon')}
            disabled={progress !== undefined}
            onClick={pick}
          >
            {icon ? <img src={icon} alt="" /> : '+'}
          </button>
        </List.Item>
        <List.Item title={<label htmlFor="shop-name">{t('shop.name')}</label>}>
          <Input
            id="shop-name"
            value={name}
            onChange={setName}
            maxLength={SHOP_NAME_MAX}
            placeholder={t('shop.namePlaceholder', { max: SHOP_NAME_MAX })}
          />
        </List.Item>
        <List.Item title={<label htmlFor="shop-intro">{t('shop.intro')}</label>}>
          <TextArea
            id="shop-intro"
            value={intro}
            onChange={setIntro}
            maxLength={SHOP_INTRO_MAX}
            showCount
            autoSize={{ minRows: 3, maxRows: 6 }}
            placeholder={t('shop.introPlaceholder')}
          />
        </List.Item>
      </List>
      {input}
      <div className="page-actions">
        <Button block color="primary" loading={sending} disabled={progress !== undefined} onClick={() => void send()}>
          {t('shop.submit')}
        </Button>
      </div>
    </>
  );
}

/** What the page shows for where the member stands. */
function ApplicationState({ info }: { info: ShopInfo }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const { shop } = info;
  if (shop?.status === 'approved') {
    return (
      <>
        <Result status="success" title={t('shop.approved')} description={t('shop.approvedHint')} />
        <div className="page-actions">
          <Button block color="primary" onClick={() => open('shop/business-index')}>
            {t('shop.toBusiness')}
          </Button>
        </div>
        <Application shop={shop} />
      </>
    );
  }
  if (shop?.status === 'pending') {
    return (
      <>
        <Result status="waiting" title={t('shop.pending')} description={t('shop.pendingHint')} />
        <Application shop={shop} />
      </>
    );
  }
  if (!info.certified) {
    return (
      <>
        <Result status="info" title={t('shop.certFirst')} description={t('shop.certFirstHint')} />
        <div className="page-actions">
          <Button block color="primary" onClick={() => open('member/renzheng')}>
            {t('shop.toCert')}
          </Button>
        </div>
      </>
    );
  }
  return (
    <>
      {shop?.status === 'rejected' && (
        <div className="blocked-banner" role="alert">
          {t('shop.rejected', { reason: shop.reason })}
        </div>
      )}
      <ApplicationForm previous={shop} onSubmitted={() => queryClient.invalidateQueries({ queryKey: [SHOP_QUERY] })} />
    </>
  );
}

/**
 * Open a shop (spec §2 shop/user-add; §4 "under review (cannot be edited), rejected (resubmit), approved"; §5 "an
 * icon, a name and a description"; §6 real-name certification first): the form, or where the application stands.
 */
export default function ShopApplication() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const query = useQuery({
    queryKey: [SHOP_QUERY, user?.id],
    queryFn: () => shopInfo({ token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('shop.applyTitle')} />
      <QueryView query={query}>{(info) => <ApplicationState info={info} />}</QueryView>
    </div>
  );
}

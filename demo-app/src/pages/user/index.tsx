import { Avatar, Badge, Button, Dialog, List } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCart } from '../../app/cart';
import { LanguageSheet } from '../../app/LanguageSheet';
import { useMessaging } from '../../app/messaging';
import { LOGIN_PATH, useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { useAppConfig } from '../../features/api/config';
import { agentTeamsOf } from '../../features/cs/teams';
import { logout } from '../../features/member/api';
import { FollowCounts } from '../../features/member/FollowCounts';
import { VerifiedBadge } from '../../features/member/VerifiedBadge';
import { cartBadge } from '../../features/shop/CartEntry';
import { QrScanner } from '../../features/member/QrScanner';
import { qrDetector, scanTarget } from '../../features/member/scan';
import { NavBar } from '../../ui/NavBar';
import { toast } from '../../ui/toast';
import '../member/feedback.css';

/**
 * Tab: mine. The signed-in user with their follow counts, or a sign-in entry, and the member menu; Scan reads a QR code
 * with the camera (a sign-in code of another device, a link). Opening the tab reads `member/info` again, so that the
 * counts are those of now.
 */
export default function UserIndex() {
  const { t, i18n } = useTranslation();
  const { user, signOut } = useSession();
  const { unreadTotal } = useMessaging();
  const cart = cartBadge(useCart().count);
  const open = useNavigateTo();
  const kefu = useAppConfig().data?.kefu_h5;
  const agent = agentTeamsOf(user).length > 0;
  const notices = user?.member_notify_badge ?? 0;
  const [languages, setLanguages] = useState(false);
  const [scanning, setScanning] = useState(false);
  /** Scans a code with the camera where the browser can (a sign-in code opens user/scan-login); says so elsewhere. */
  const startScan = () => {
    if (qrDetector()) setScanning(true);
    else toast(t('scan.unsupported'));
  };
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: ['member/info'] }, { cancelRefetch: false });
  }, [queryClient]);

  const confirmLogout = async () => {
    const ok = await Dialog.confirm({
      content: t('mine.logoutConfirm'),
      confirmText: t('common.ok'),
      cancelText: t('common.cancel'),
    });
    if (!ok || !user) return;
    await logout({ token: user.token, locale: i18n.language });
    signOut();
  };

  return (
    <div className="page">
      <NavBar
        title={t('mine.title')}
        back={false}
        right={
          <button type="button" className="feedback-mine" onClick={startScan}>
            {t('scan.action')}
          </button>
        }
      />
      {scanning && (
        <QrScanner
          onClose={() => setScanning(false)}
          onScanned={(text) => {
            setScanning(false);
            const target = scanTarget(text);
            if (target.kind === 'app') open(target.path);
            else if (target.kind === 'web') open(target.url);
            else void Dialog.alert({ title: t('scan.text'), content: target.text, confirmText: t('common.ok') });
          }}
        />
      )}
      <section
        className="mine-header"
        style={user?.background ? { backgroundImage: `url(${JSON.stringify(user.background)})` } : undefined}
      >
        {user ? (
          <>
            <Avatar src={user.img} style={{ '--size': '56px', '--border-radius': '50%' }} />
            <div
              className="mine-who"
              role="link"
              tabIndex={0}
              aria-label={t('home.mine')}
              onClick={() => open('user/home')}
              onKeyDown={(event) => event.key === 'Enter' && open('user/home')}
            >
              <div className="mine-name">
                {user.username}
                {user.shiming === 1 && <VerifiedBadge />}
              </div>
              <div className="muted">{t('mine.id', { id: user.id })}</div>
              {user.qianming && <div className="mine-signature">{user.qianming}</div>}
            </div>
            <FollowCounts follows={user.follows ?? 0} fans={user.fans ?? 0} likes={user.likes ?? 0} />
          </>
        ) : (
          <div className="mine-visitor">
            <Button color="primary" onClick={() => open(LOGIN_PATH)}>
              {t('mine.signIn')}
            </Button>
            <div className="muted">{t('mine.signInHint')}</div>
          </div>
        )}
      </section>
      <List>
        <List.Item
          onClick={() => open('im/index')}
          extra={unreadTotal > 0 ? <Badge content={unreadTotal > 99 ? '99+' : unreadTotal} /> : null}
        >
          {t('mine.messages')}
        </List.Item>
        <List.Item
          onClick={() => open('member/notify')}
          extra={notices > 0 ? <Badge content={notices > 99 ? '99+' : notices} /> : null}
        >
          {t('mine.notifications')}
        </List.Item>
        <List.Item onClick={() => open('article/find')}>{t('discover.title')}</List.Item>
        <List.Item onClick={() => open('user/user_list')}>{t('mine.findFriends')}</List.Item>
        <List.Item onClick={() => open('member/record')}>{t('article.collection')}</List.Item>
        <List.Item onClick={() => open('renwu/index')}>{t('mine.tasks')}</List.Item>
        <List.Item onClick={() => open('shop/user-order')}>{t('mine.orders')}</List.Item>
        <List.Item onClick={() => open('shop/user-ping')}>{t('mine.reviews')}</List.Item>
        <List.Item onClick={() => open('shop/shoucang')}>{t('mine.favourites')}</List.Item>
        <List.Item onClick={() => open('shop/history')}>{t('mine.history')}</List.Item>
        <List.Item onClick={() => open('shop/cart')} extra={cart ? <Badge content={cart} /> : null}>
          {t('mine.cart')}
        </List.Item>
        <List.Item onClick={() => open('member/money')}>{t('mine.wallet')}</List.Item>
        <List.Item onClick={() => open('live/index')}>{t('live.title')}</List.Item>
        <List.Item onClick={() => open('shop/business-index')}>{t('mine.shop')}</List.Item>
        <List.Item onClick={() => open(kefu)}>{t('mine.contactService')}</List.Item>
        <List.Item onClick={() => open('public/tianqi')}>{t('weather.title')}</List.Item>
        <List.Item onClick={() => open('public/yiqing')}>{t('epidemic.title')}</List.Item>
        <List.Item onClick={() => open('member/feedback')}>{t('mine.feedback')}</List.Item>
        {agent && <List.Item onClick={() => open('im/console')}>{t('mine.serviceConsole')}</List.Item>}
        <List.Item onClick={() => open('member/sz')}>{t('mine.settings')}</List.Item>
        {/* A visitor may not open member/language (spec §2): the language sheet opens over this page instead. */}
        <List.Item onClick={() => (user ? open('member/language') : setLanguages(true))}>
          {t('mine.language')}
        </List.Item>
      </List>
      <LanguageSheet visible={languages} onClose={() => setLanguages(false)} />
      {user && (
        <div className="page-actions">
          <Button block color="danger" fill="outline" onClick={() => void confirmLogout()}>
            {t('mine.logout')}
          </Button>
        </div>
      )}
    </div>
  );
}

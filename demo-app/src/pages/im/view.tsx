import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useMessaging } from '../../app/messaging';
import { useSession } from '../../app/session';
import { useAppConfig } from '../../features/api/config';
import { CustomerChat } from '../../features/cs/CustomerChat';
import { teamTitle } from '../../features/cs/teams';
import { GroupChat, PrivateChat } from '../../features/im/chats';
import { MessagingGate } from '../../features/im/MessagingGate';
import { NavBar } from '../../ui/NavBar';

/** The user's own chat with a customer-service team, as the kefu link opens it. */
function ServiceChat({ teamId, me, emoji }: { teamId: string; me: string; emoji: Record<string, string> | undefined }) {
  const { t } = useTranslation();
  const kefu = useAppConfig().data?.kefu_team;
  const name = kefu?.id === teamId ? kefu.name : '';
  return (
    <>
      <NavBar title={teamTitle(name, t)} />
      <CustomerChat teamId={teamId} teamName={name} me={me} emoji={emoji} />
    </>
  );
}

/** im/view?uid= (private), im/view?gid= (group) or im/view?team= (customer service, from the kefu link). */
export default function ImView() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { available } = useMessaging();
  const { user } = useSession();
  const emoji = useAppConfig().data?.emoji;
  const uid = params.get('uid') ?? '';
  const gid = params.get('gid') ?? '';
  const team = params.get('team') ?? '';

  let body;
  if (uid !== '' && uid === user?.id) {
    body = (
      <>
        <NavBar title={t('im.title')} />
        <ErrorBlock status="default" title={t('im.cannotMessageYourself')} description="" />
      </>
    );
  } else if (uid === '' && gid === '' && team === '') {
    body = (
      <>
        <NavBar title={t('im.title')} />
        <ErrorBlock status="empty" title={t('common.linkMissing')} description="" />
      </>
    );
  } else if (!available) {
    body = (
      <>
        <NavBar title={t('im.title')} />
        <MessagingGate>{null}</MessagingGate>
      </>
    );
  } else if (uid !== '') {
    body = <PrivateChat uid={uid} emoji={emoji} />;
  } else if (gid !== '') {
    body = <GroupChat gid={gid} emoji={emoji} />;
  } else {
    body = <ServiceChat teamId={team} me={user?.id ?? ''} emoji={emoji} />;
  }
  return <div className="page page-chat">{body}</div>;
}

import { Avatar, Button, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import type { FollowedMember } from './follows';
import { useFollow } from './relations';

/** The follow button of a line: Following (or Mutual, among one's own fans) to unfollow; Follow (or Follow back). */
function FollowButton({ member, ownFans }: { member: FollowedMember; ownFans: boolean }) {
  const { t } = useTranslation();
  const follow = useFollow();
  const label = member.followed
    ? t(ownFans ? 'follows.mutual' : 'follows.following')
    : t(ownFans ? 'follows.followBack' : 'follows.follow');
  return (
    <Button
      size="small"
      color={member.followed ? 'default' : 'primary'}
      fill={member.followed ? 'outline' : 'solid'}
      onClick={(event) => {
        event.stopPropagation();
        void follow(member.id, !member.followed);
      }}
    >
      {label}
    </Button>
  );
}

/**
 * One member in a list of members (follows, followers, members found): avatar, name (a cancelled member's by id),
 * signature and a follow button, none on oneself; the line opens the member's home. `ownFans` words the button for
 * the signed-in member's own followers.
 */
export function MemberLine({ member, ownFans = false }: { member: FollowedMember; ownFans?: boolean }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  return (
    <List.Item
      prefix={<Avatar src={member.img} style={{ '--size': '40px', '--border-radius': '50%' }} />}
      description={member.qianming || undefined}
      extra={member.id === user?.id ? null : <FollowButton member={member} ownFans={ownFans} />}
      onClick={() => open(`user/home?id=${encodeURIComponent(member.id)}`)}
      data-testid="follow-line"
    >
      {member.username || t('im.user', { id: member.id })}
    </List.Item>
  );
}

import { useGroupPresence } from 'parley-im/react';
import { useTranslation } from 'react-i18next';

/** A group's presence under its title: how many members are online, and who (spec §3: group presence events). */
export function GroupPresence({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const { onlineCount, members } = useGroupPresence(groupId);
  if (onlineCount === undefined) return null;
  const names = members.map((m) =>
    typeof m.data['name'] === 'string' && m.data['name'] !== '' ? m.data['name'] : m.id,
  );
  return (
    <div className="group-presence" data-testid="group-presence" role="status">
      <span>{t('im.groupOnline', { count: onlineCount })}</span>
      {' · '}
      <span aria-label={t('im.groupMembers')}>{names.length > 0 ? names.join(', ') : t('im.noneOnline')}</span>
    </div>
  );
}

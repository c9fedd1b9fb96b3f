import { useTranslation } from 'react-i18next';
import { LivePlayer } from './LivePlayer';
import type { Guest } from './room';

/** The guests on stage, each a small window of their stream over the anchor's, labelled with their name. */
export function GuestWindows({ guests }: { guests: readonly Guest[] }) {
  const { t } = useTranslation();
  if (guests.length === 0) return null;
  return (
    <div className="live-guests">
      {guests.map((guest) => {
        const name = guest.username || t('im.user', { id: guest.uid });
        return (
          <figure key={guest.play_url} className="live-guest" data-testid="live-guest">
            <LivePlayer url={guest.play_url} poster="" label={name} />
            <figcaption className="live-guest-name">{name}</figcaption>
          </figure>
        );
      })}
    </div>
  );
}

import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A resolution of the player (spec §2): smooth, SD, HD, Blu-ray. */
export type VideoQuality = 'smooth' | 'sd' | 'hd' | 'bluray';

/** One resolution a video has, as the server lists it: its quality, where it is read, its height in pixels. */
export interface VideoSource {
  quality: VideoQuality;
  url: string;
  height: number;
}

const ORDER: readonly VideoQuality[] = ['smooth', 'sd', 'hd', 'bluray'];

/**
 * The resolution a video starts in: HD when it has it, else the highest below HD (a phone's link and screen rarely
 * want more), else the lowest it has.
 */
export function defaultSource(sources: readonly VideoSource[]): VideoSource | undefined {
  const rank = (source: VideoSource) => ORDER.indexOf(source.quality);
  const upToHd = sources.filter((source) => rank(source) <= ORDER.indexOf('hd'));
  const pick = (list: readonly VideoSource[], best: (a: number, b: number) => boolean) =>
    list.reduce<VideoSource | undefined>(
      (found, source) => (!found || best(rank(source), rank(found)) ? source : found),
      undefined,
    );
  return pick(upToHd, (a, b) => a > b) ?? pick(sources, (a, b) => a < b);
}

/** What the player shows: the video, its cover, its resolutions, and how the `<video>` element is set. */
export interface VideoPlayerProps {
  url: string;
  cover: string;
  /** Its resolutions; with fewer than two, no switch is shown and the one there (or `url`) plays. */
  sources?: readonly VideoSource[] | undefined;
  className: string;
  testId: string;
  preload?: 'none' | 'metadata' | 'auto';
  /** Plays as soon as it can. */
  autoPlay?: boolean;
  /** The resolution to start in when the video has it, instead of {@link defaultSource}'s. */
  start?: VideoQuality | undefined;
}

/**
 * A video with its controls and, when it has more than one resolution, a switch over its corner listing those it
 * has. Switching reads the other file from where the video was, playing again if it was playing.
 */
export function VideoPlayer({
  url,
  cover,
  sources = [],
  className,
  testId,
  preload,
  autoPlay,
  start,
}: VideoPlayerProps) {
  const { t } = useTranslation();
  const player = useRef<HTMLVideoElement>(null);
  const [chosen, setChosen] = useState<VideoQuality>();
  const [open, setOpen] = useState(false);
  /** Where to go on once the other file's metadata is in: the time, and whether it was playing. */
  const resume = useRef<{ time: number; playing: boolean } | undefined>(undefined);
  const ordered = [...sources].sort((a, b) => ORDER.indexOf(a.quality) - ORDER.indexOf(b.quality));
  const current = ordered.find((source) => source.quality === (chosen ?? start)) ?? defaultSource(ordered);

  const choose = (quality: VideoQuality) => {
    setOpen(false);
    if (quality === current?.quality) return;
    const video = player.current;
    if (video) resume.current = { time: video.currentTime, playing: !video.paused && !video.ended };
    setChosen(quality);
  };

  const resumed = () => {
    const video = player.current;
    const at = resume.current;
    if (!video || !at) return;
    resume.current = undefined;
    video.currentTime = at.time;
    // A browser may refuse to go on (no gesture counted); the controls are still there.
    if (at.playing) void video.play()?.catch(() => undefined);
  };

  return (
    <div className="video-player">
      <video
        ref={player}
        className={className}
        data-testid={testId}
        controls
        playsInline
        preload={preload}
        autoPlay={autoPlay}
        poster={cover}
        src={current?.url ?? url}
        onLoadedMetadata={resumed}
      />
      {ordered.length > 1 && current && (
        <div className="video-quality">
          <button
            type="button"
            className="video-quality-button"
            aria-haspopup="menu"
            aria-expanded={open}
            aria-label={`${t('video.quality')}: ${t(`video.quality_${current.quality}`)}`}
            onClick={() => setOpen(!open)}
          >
            {t(`video.quality_${current.quality}`)}
          </button>
          {open && (
            <ul className="video-quality-menu" role="menu" aria-label={t('video.quality')}>
              {[...ordered].reverse().map((source) => (
                <li key={source.quality} role="none">
                  <button
                    type="button"
                    role="menuitemradio"
                    aria-checked={source.quality === current.quality}
                    onClick={() => choose(source.quality)}
                  >
                    {t(`video.quality_${source.quality}`)}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

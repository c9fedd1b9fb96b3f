import { useEffect, useRef, useState } from 'react';

/** Whether `url` is an HLS playlist. */
const isHls = (url: string) => /\.m3u8($|[?#])/i.test(url);

/** Whether the browser plays HLS itself (Safari, iOS, most Android browsers). */
const nativeHls = () => document.createElement('video').canPlayType('application/vnd.apple.mpegurl') !== '';

/** How long the player waits after its stream failed (not there yet, or gone a moment) before it tries again. */
export const LIVE_RETRY_MS = 3000;

/**
 * The room's stream: a `<video>` of the play URL. An HLS playlist in a browser that does not play HLS itself goes
 * through hls.js, loaded only then and torn down with the player; where hls.js cannot run either (no Media Source
 * Extensions), the video is given the URL as it is. A stream that fails, as one does before the anchor's software
 * reaches the media server or while it reconnects, is tried again every {@link LIVE_RETRY_MS}.
 */
export function LivePlayer({ url, poster, label }: { url: string; poster: string; label: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [direct, setDirect] = useState(() => !isHls(url) || nativeHls());
  // Each try a player of its own: a failed one is torn down and the next made from the start.
  const [attempt, setAttempt] = useState(0);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const tryAgain = () => {
    if (retry.current !== undefined) return;
    retry.current = setTimeout(() => {
      retry.current = undefined;
      setAttempt((n) => n + 1);
    }, LIVE_RETRY_MS);
  };
  useEffect(() => () => clearTimeout(retry.current), []);

  useEffect(() => {
    const element = video.current;
    if (direct || !element) return;
    let gone = false;
    let destroy: (() => void) | undefined;
    import('hls.js')
      .then(({ default: Hls }) => {
        if (gone) return;
        if (!Hls.isSupported()) {
          setDirect(true);
          return;
        }
        const hls = new Hls({ lowLatencyMode: true });
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) tryAgain();
        });
        hls.loadSource(url);
        hls.attachMedia(element);
        destroy = () => hls.destroy();
      })
      .catch(() => {
        if (!gone) setDirect(true);
      });
    return () => {
      gone = true;
      destroy?.();
    };
  }, [url, direct, attempt]);

  return (
    <video
      key={attempt}
      ref={video}
      className="live-video"
      src={direct ? url : undefined}
      poster={poster || undefined}
      aria-label={label}
      data-testid="live-video"
      onError={direct ? tryAgain : undefined}
      controls
      autoPlay
      // Browsers play a video by themselves only without sound: the controls turn it on.
      muted
      playsInline
    />
  );
}

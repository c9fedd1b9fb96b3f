import { useEffect, useRef, useState } from 'react';

/** Whether `url` is an HLS playlist. */
const isHls = (url: string) => /\.m3u8($|[?#])/i.test(url);

/** Whether the browser plays HLS itself (Safari, iOS, most Android browsers). */
const nativeHls = () => document.createElement('video').canPlayType('application/vnd.apple.mpegurl') !== '';

/**
 * The room's stream: a `<video>` of the play URL. An HLS playlist in a browser that does not play HLS itself goes
 * through hls.js, loaded only then and torn down with the player; where hls.js cannot run either (no Media Source
 * Extensions), the video is given the URL as it is.
 */
export function LivePlayer({ url, poster, label }: { url: string; poster: string; label: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [direct, setDirect] = useState(() => !isHls(url) || nativeHls());

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
  }, [url, direct]);

  return (
    <video
      ref={video}
      className="live-video"
      src={direct ? url : undefined}
      poster={poster || undefined}
      aria-label={label}
      data-testid="live-video"
      controls
      autoPlay
      // Browsers play a video by themselves only without sound: the controls turn it on.
      muted
      playsInline
    />
  );
}

import { kefuLink } from './cs.js';
import type { ProductApiDeps } from './index.js';
import type { ProductPost } from './reply.js';

/** What the app needs to know about itself from the server. */
export interface ProductAppInfo {
  /** The messaging appkey the app connects with. */
  appkey: string;
  /** Whether the first two tab labels are "front page" and "video" (true) or "latest" and "hot". */
  appShow: boolean;
}

/** Emoji offered in chat: name -> image. Inline SVG so that no image host is needed. */
const EMOJI: Record<string, string> = Object.fromEntries(
  (
    [
      ['smile', '😀'],
      ['laugh', '😂'],
      ['wink', '😉'],
      ['love', '😍'],
      ['cool', '😎'],
      ['think', '🤔'],
      ['cry', '😭'],
      ['angry', '😠'],
      ['thumbs', '👍'],
      ['clap', '👏'],
      ['heart', '❤️'],
      ['party', '🎉'],
    ] as const
  ).map(([name, glyph]) => [
    name,
    `data:image/svg+xml,${encodeURIComponent(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><text x="16" y="25" font-size="24" text-anchor="middle">${glyph}</text></svg>`,
    )}`,
  ]),
);

/**
 * `index/config`: the app config (spec §3): kefu link (the app's own chat with the customer-service team) and that
 * team, emoji map, upload URL and whether its images resize (UP-20), plus messaging settings.
 */
export function indexConfigRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('index/config', () =>
    Promise.resolve({
      ret: {
        kefu_h5: kefuLink(deps.cs.teamId),
        kefu_team: { id: deps.cs.teamId, name: deps.cs.teamName },
        emoji: EMOJI,
        aliyun: {
          upload_url: deps.uploads.service.postUrl(),
          // UP-20: the server's own storage resizes images; S3 serves them as they are.
          image_resize: deps.uploads.service.vendor === 'ALI',
        },
        app_show: deps.app.appShow,
        im: { appkey: deps.app.appkey },
      },
    }),
  );
}

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiPost } from './request';

/** The app config from `index/config` (spec §3); fields beyond these are not used yet. */
export interface AppConfig {
  /** Where "contact customer service" goes: the app's chat with {@link AppConfig.kefu_team}, or empty for none. */
  kefu_h5: string;
  /** The customer-service team of the kefu link; an empty name means the app's own words for it. */
  kefu_team?: { id: string; name: string };
  /** Emoji name -> image URL, offered in chat. */
  emoji: Record<string, string>;
  /** Where files are posted, and whether that storage resizes images for thumbnails (UP-20). */
  aliyun: { upload_url: string; image_resize?: boolean };
  /** Whether the first two tabs read "front page" and "video" rather than "latest" and "hot". */
  app_show: boolean;
  im: { appkey: string };
}

/** Query key of the config; invalidated on each app show (spec §4). */
export const CONFIG_KEY = ['index/config'] as const;

/** The app config, loaded once and reloaded when the app is shown again. */
export function useAppConfig() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: CONFIG_KEY,
    queryFn: async () => (await apiPost<{ ret: AppConfig }>('index/config', {}, { locale: i18n.language })).ret,
    staleTime: Infinity,
  });
}

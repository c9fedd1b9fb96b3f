import { useQueryClient } from '@tanstack/react-query';
import { createClient, type ParleyClient, type Transport } from 'parley-im';
import { ParleyProvider, useConversations, useUserEvent } from 'parley-im/react';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CONFIG_KEY, useAppConfig } from '../features/api/config';
import { memberInfo } from '../features/member/api';
import { NOTICES_QUERY } from '../features/member/notices';
import { sessionOtpProvider } from '../features/member/otp';
import { useSession } from './session';

/** What the rest of the app knows about messaging without needing the SDK's provider. */
interface Messaging {
  /** Whether a ParleyProvider is mounted, so that the SDK hooks may be used. */
  available: boolean;
  /** Unread messages of all conversations. */
  unreadTotal: number;
}

const MessagingContext = createContext<Messaging>({ available: false, unreadTotal: 0 });

/** Messaging facts for components outside the SDK's provider (the tab bar) and inside it (the chat pages). */
export function useMessaging(): Messaging {
  return useContext(MessagingContext);
}

/** Whether the page is shown; the connection is closed while it is hidden (spec §4: on each app show). */
function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return visible;
}

/** The user event by which the server tells the member of a new notification (docs/product-app.md). */
export const NOTICE_EVENT = 'notice';

function UnreadBridge({ children }: { children: ReactNode }) {
  const { list } = useConversations();
  const queryClient = useQueryClient();
  // A new notification: the badge (member/info) and the list are read again at once, on every device.
  useUserEvent(NOTICE_EVENT, () => {
    void queryClient.invalidateQueries({ queryKey: ['member/info'] });
    void queryClient.invalidateQueries({ queryKey: [NOTICES_QUERY] });
  });
  const value = useMemo(() => ({ available: true, unreadTotal: list?.unreadTotal ?? 0 }), [list?.unreadTotal]);
  return <MessagingContext.Provider value={value}>{children}</MessagingContext.Provider>;
}

/**
 * Connects to messaging as the signed-in user while the page is visible: on login or at app start with a stored
 * user (spec §4), closed when the page is hidden and on logout, resumed on show with the config reloaded.
 * `transport` replaces the socket.io transport (tests connect to an in-process server with it).
 */
export function MessagingProvider({ children, transport }: { children: ReactNode; transport?: Transport }) {
  const config = useAppConfig();
  const { user, otp } = useSession();
  const visible = usePageVisible();
  const queryClient = useQueryClient();
  const appkey = config.data?.im.appkey;
  const userId = user?.id;

  useEffect(() => {
    if (visible) void queryClient.invalidateQueries({ queryKey: CONFIG_KEY });
  }, [visible, queryClient]);

  // One client per user: the provider reuses a connected client, so a new user needs a client of its own.
  const client = useMemo<ParleyClient | undefined>(
    () =>
      appkey && userId
        ? createClient({
            host: window.location.host,
            forceTLS: window.location.protocol === 'https:',
            appkey,
            // pubsub: the live rooms' channels.
            modules: ['im', 'pubsub'],
            ...(transport ? { transport } : {}),
          })
        : undefined,
    [appkey, userId, transport],
  );
  const name = user?.username;
  const avatar = user?.img;
  const { i18n } = useTranslation();
  const latestOtp = useRef(otp);
  latestOtp.current = otp;
  const token = user?.token;
  const locale = i18n.language;
  // A reconnect after the otp expired (a long visit) asks member/info for a fresh one instead of failing.
  const otpProvider = useMemo(
    () =>
      sessionOtpProvider(
        () => latestOtp.current,
        async () => (await memberInfo({ token, locale })).otp,
      ),
    [token, locale],
  );
  const hasOtp = otp !== null;
  const connectAs = useMemo(
    () =>
      visible && hasOtp && userId
        ? { id: userId, data: { name: name ?? '', avatar: avatar ?? '' }, otp: otpProvider }
        : undefined,
    [visible, hasOtp, userId, name, avatar, otpProvider],
  );

  if (!client)
    return (
      <MessagingContext.Provider value={{ available: false, unreadTotal: 0 }}>{children}</MessagingContext.Provider>
    );
  return (
    <ParleyProvider client={client} user={connectAs}>
      <UnreadBridge>{children}</UnreadBridge>
    </ParleyProvider>
  );
}

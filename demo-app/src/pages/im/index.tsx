import { useTranslation } from 'react-i18next';
import { ConversationList } from '../../features/im/ConversationList';
import { MessagingGate } from '../../features/im/MessagingGate';
import { NavBar } from '../../ui/NavBar';

/** im/index: the conversation list; private, group and customer-service rows open their chats. */
export default function ImIndex() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <NavBar title={t('im.title')} />
      <MessagingGate>
        <ConversationList />
      </MessagingGate>
    </div>
  );
}

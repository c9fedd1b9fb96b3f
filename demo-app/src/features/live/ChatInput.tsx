import { Button, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIVE_LIMITS, chatTextValid } from './api';
import { toastError } from '../../ui/toast';

/**
 * Where the member writes to the room. `closed` says why they cannot (muted or removed, not started, ended), in place
 * of the box's hint; `send` resolves true once the line is sent, which empties the box.
 */
export function ChatInput({ closed, send }: { closed: string | undefined; send: (text: string) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);

  const submit = async () => {
    if (!chatTextValid(text)) return toastError(t('errors.live_text_invalid'));
    setSending(true);
    try {
      if (await send(text.trim())) setText('');
    } finally {
      setSending(false);
    }
  };

  return (
    <form
      className="live-composer"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Input
        className="live-composer-input"
        aria-label={t('live.chatPlaceholder')}
        placeholder={closed ?? t('live.chatPlaceholder')}
        value={closed ? '' : text}
        onChange={setText}
        maxLength={LIVE_LIMITS.textMax}
        disabled={closed !== undefined}
        enterKeyHint="send"
      />
      <Button type="submit" color="primary" size="small" loading={sending} disabled={closed !== undefined}>
        {t('live.send')}
      </Button>
    </form>
  );
}

import { Button, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Longest text message (spec §5). */
const MAX_TEXT = 2500;

/** Props of {@link Composer}. */
export interface ComposerProps {
  emoji: Record<string, string> | undefined;
  onSend: (text: string) => void;
  onTooLong: () => void;
}

/** The input row: text, an emoji panel from the config's emoji map, and send. */
export function Composer({ emoji, onSend, onTooLong }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [panel, setPanel] = useState(false);
  const send = () => {
    if (text.trim() === '') return;
    if (text.length > MAX_TEXT) return onTooLong();
    onSend(text);
    setText('');
  };
  const names = Object.keys(emoji ?? {});
  return (
    <footer className="composer">
      <div className="composer-row">
        <Input
          className="composer-input"
          placeholder={t('im.inputPlaceholder')}
          value={text}
          onChange={setText}
          onEnterPress={send}
          aria-label={t('im.inputPlaceholder')}
        />
        {names.length > 0 && (
          <Button size="small" fill="none" aria-label={t('im.emoji')} onClick={() => setPanel((p) => !p)}>
            ☺
          </Button>
        )}
        <Button size="small" color="primary" onClick={send} disabled={text.trim() === ''}>
          {t('im.send')}
        </Button>
      </div>
      {panel && (
        <div className="emoji-panel" role="listbox" aria-label={t('im.emoji')}>
          {names.map((name) => (
            <button key={name} type="button" className="emoji-choice" onClick={() => setText((v) => `${v}[${name}]`)}>
              <img src={emoji?.[name]} alt={`[${name}]`} />
            </button>
          ))}
        </div>
      )}
    </footer>
  );
}

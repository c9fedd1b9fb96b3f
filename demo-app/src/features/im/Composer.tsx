import { Button, Input } from 'antd-mobile';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCEPT, type MediaKind } from './media';

/** Longest text message (spec §5). */
const MAX_TEXT = 2500;

/** The attachment choices, in the order the panel offers them. */
const KINDS: readonly MediaKind[] = ['image', 'video', 'audio', 'file'];
const LABELS = {
  image: 'im.attachImage',
  video: 'im.attachVideo',
  audio: 'im.attachAudio',
  file: 'im.attachFile',
} as const;

/** Props of {@link Composer}. */
export interface ComposerProps {
  emoji: Record<string, string> | undefined;
  onSend: (text: string) => void;
  onTooLong: () => void;
  /** Sends a picked file as a media message; without it the composer offers no attachments. */
  onAttach?: (kind: MediaKind, file: File) => void;
  /** Each change that leaves text in the input: the other side hears I am typing (TYPING-1). */
  onTyping?: () => void;
  /** The input was emptied: the other side hears I stopped. */
  onStopTyping?: () => void;
}

/** The input row: text, an emoji panel from the config's emoji map, attachments (image, video, audio, file), send. */
export function Composer({ emoji, onSend, onTooLong, onAttach, onTyping, onStopTyping }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [panel, setPanel] = useState<'emoji' | 'attach' | undefined>(undefined);
  const inputs = useRef<Partial<Record<MediaKind, HTMLInputElement | null>>>({});
  const send = () => {
    if (text.trim() === '') return;
    if (text.length > MAX_TEXT) return onTooLong();
    onSend(text);
    setText('');
  };
  const toggle = (which: 'emoji' | 'attach') => setPanel((p) => (p === which ? undefined : which));
  const picked = (kind: MediaKind) => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so that picking the same file again sends it again.
    event.target.value = '';
    if (!file) return;
    setPanel(undefined);
    onAttach?.(kind, file);
  };
  const names = Object.keys(emoji ?? {});
  return (
    <footer className="composer">
      <div className="composer-row">
        <Input
          className="composer-input"
          placeholder={t('im.inputPlaceholder')}
          value={text}
          onChange={(value) => {
            setText(value);
            if (value.trim() === '') onStopTyping?.();
            else onTyping?.();
          }}
          onEnterPress={send}
          aria-label={t('im.inputPlaceholder')}
        />
        {names.length > 0 && (
          <Button size="small" fill="none" aria-label={t('im.emoji')} onClick={() => toggle('emoji')}>
            ☺
          </Button>
        )}
        {onAttach && (
          <Button size="small" fill="none" aria-label={t('im.attach')} onClick={() => toggle('attach')}>
            ＋
          </Button>
        )}
        <Button size="small" color="primary" onClick={send} disabled={text.trim() === ''}>
          {t('im.send')}
        </Button>
      </div>
      {panel === 'emoji' && (
        <div className="emoji-panel" role="listbox" aria-label={t('im.emoji')}>
          {names.map((name) => (
            <button key={name} type="button" className="emoji-choice" onClick={() => setText((v) => `${v}[${name}]`)}>
              <img src={emoji?.[name]} alt={`[${name}]`} />
            </button>
          ))}
        </div>
      )}
      {onAttach && panel === 'attach' && (
        <div className="attach-panel" role="group" aria-label={t('im.attach')}>
          {KINDS.map((kind) => (
            <button key={kind} type="button" className="attach-choice" onClick={() => inputs.current[kind]?.click()}>
              {t(LABELS[kind])}
            </button>
          ))}
        </div>
      )}
      {/* Always there, so that a pick that returns after the panel closed still arrives. */}
      {onAttach &&
        KINDS.map((kind) => (
          <input
            key={kind}
            ref={(el) => {
              inputs.current[kind] = el;
            }}
            type="file"
            hidden
            accept={ACCEPT[kind]}
            data-testid={`attach-${kind}`}
            onChange={picked(kind)}
          />
        ))}
    </footer>
  );
}

import { Fragment } from 'react';

/** Emoji tokens in message text: `[name]`, as the emoji panel inserts them. */
const TOKEN = /\[([a-z]+)\]/g;

/**
 * Renders message text as text: React escapes it, and emoji tokens known to the config become images. Never
 * HTML from the message itself, so `<img onerror>` in a message stays visible text.
 */
export function MessageText({ text, emoji }: { text: string; emoji: Record<string, string> | undefined }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const name = match[1] ?? '';
    const url = emoji?.[name];
    // Only data: and http(s) images from our own config; anything else stays as typed.
    if (!url || !/^(data:image\/|https?:\/\/)/.test(url)) continue;
    parts.push(<Fragment key={`t${last}`}>{text.slice(last, match.index)}</Fragment>);
    parts.push(<img key={`e${match.index}`} className="emoji" src={url} alt={`[${name}]`} />);
    last = match.index + match[0].length;
  }
  parts.push(<Fragment key={`t${last}`}>{text.slice(last)}</Fragment>);
  return <span className="message-text">{parts}</span>;
}

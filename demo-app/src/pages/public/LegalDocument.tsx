import { Checkbox, Popup } from 'antd-mobile';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NavBar } from '../../ui/NavBar';
import './legal.css';

/** The numbered sections of each document, as keyed in the language files. */
const SECTIONS = {
  agreement: ['s1', 's2', 's3', 's4', 's5', 's6', 's7'],
  privacy: ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'],
  cancellation: ['s1', 's2', 's3'],
  withdrawalAgreement: ['s1', 's2', 's3'],
  rechargeAgreement: ['s1', 's2', 's3'],
} as const;

/** The legal documents of the app, by their key in the language files. */
export type LegalDoc = keyof typeof SECTIONS;

/** A document's text, in the app's language: for a page, or a sheet over a form. */
export function LegalText({ doc }: { doc: LegalDoc }) {
  const { t } = useTranslation();
  return (
    <article className="legal">
      <h1>{t(`${doc}.title`)}</h1>
      <p>{t(`${doc}.intro`)}</p>
      {SECTIONS[doc].map((section) => (
        <section key={section}>
          <h2>{t(`${doc}.${section}Title`)}</h2>
          <p>{t(`${doc}.${section}Body`)}</p>
        </section>
      ))}
      {doc === 'agreement' && <p>{t('agreement.contact')}</p>}
    </article>
  );
}

/** The user agreement, the privacy policy or the cancellation agreement as a page of its own. */
export function LegalDocument({ doc }: { doc: LegalDoc }) {
  const { t } = useTranslation();
  return (
    <div className="page">
      <NavBar title={t(`${doc}.title`)} />
      <LegalText doc={doc} />
    </div>
  );
}

/**
 * "I have read and agree to the <document>": a box a form needs ticked before it sends (a withdrawal, a recharge),
 * whose link opens `doc` in a sheet over the form and leaves the box as it was.
 */
export function AgreementCheck({
  doc,
  checked,
  onChange,
  lead,
  name,
}: {
  doc: LegalDoc;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The words before the link ("I have read and agree to the"). */
  lead: string;
  /** The link's words: the document's name. */
  name: string;
}) {
  const [reading, setReading] = useState(false);
  const openDocument = (event: MouseEvent) => {
    // Inside the checkbox's label: the link opens the document and leaves the box as it was.
    event.preventDefault();
    event.stopPropagation();
    setReading(true);
  };
  return (
    <>
      <Checkbox className="out-agree" checked={checked} onChange={onChange}>
        {lead}{' '}
        <a href={window.location.hash || '#'} onClick={openDocument}>
          {name}
        </a>
      </Checkbox>
      <Popup
        visible={reading}
        onMaskClick={() => setReading(false)}
        bodyClassName="legal-sheet"
        showCloseButton
        onClose={() => setReading(false)}
      >
        <LegalText doc={doc} />
      </Popup>
    </>
  );
}

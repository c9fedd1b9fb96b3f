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

import { LegalDocument } from './LegalDocument';

/** The privacy policy (public/privacy), linked from login and settings. */
export default function PrivacyPolicy() {
  return <LegalDocument doc="privacy" />;
}

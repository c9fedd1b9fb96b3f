import { LegalDocument } from './LegalDocument';

/** The user agreement (public/agreement), linked from login and settings. */
export default function UserAgreement() {
  return <LegalDocument doc="agreement" />;
}

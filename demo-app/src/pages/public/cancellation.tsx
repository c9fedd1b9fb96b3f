import { LegalDocument } from './LegalDocument';

/** The account cancellation agreement (public/cancellation), linked from member/out. */
export default function CancellationAgreement() {
  return <LegalDocument doc="cancellation" />;
}

import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { LegalPage, Section } from "~/components/legal-page";

export const meta: MetaFunction = () => [{ title: "Terms of Service · Data Purging Tool" }];

export async function loader() {
  return null;
}

const highlights = [
  "You must be at least 18 years old to use the service.",
  "All payments are final: we do not give refunds.",
  "A plan runs for 30 days from the day your bank transfer is confirmed, then expires; nothing renews or is charged automatically.",
  "Payment is by bank transfer only; we never store or charge a card.",
  "Our total liability to you is limited to $10.",
  "Florida law governs these terms; disputes go to binding arbitration.",
];

export default function Terms() {
  return (
    <LegalPage title="Terms of Service" updated="November 21, 2026">
      <p>
        These Terms of Service (the &quot;Terms&quot;) govern your use of the Data Purging Tool website, application and API (together, the
        &quot;Service&quot;). By creating an account or using the Service you agree to these Terms. If you use the Service for a company, you confirm that you
        may bind that company to them.
      </p>

      <div className="rounded-lg border border-blue-200 bg-blue-50 p-4" data-testid="terms-highlights">
        <h2 className="mb-2 text-base font-semibold text-blue-900">The highlights</h2>
        <ul className="list-disc space-y-1 pl-5 text-blue-900">
          {highlights.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-blue-800">This summary is for convenience; the full Terms below govern.</p>
      </div>

      <Section title="1. Eligibility">
        <p>
          You must be at least 18 years old and able to enter into a binding contract to use the Service. We do not knowingly provide the Service to anyone
          under 18, and we close accounts that we learn belong to a minor.
        </p>
      </Section>

      <Section title="2. Your account">
        <p>
          You are responsible for the information in your account, for keeping your password and API keys secret, and for everything done with your account.
          Tell us at once if you believe someone else has access to it. Administrators of your organization may invite, manage and remove the users of your
          team.
        </p>
      </Section>

      <Section title="3. What the Service does, and what it does not">
        <p>
          The Service compares the phone numbers you upload or enter with do-not-call, litigation and other suppression lists, and with your own suppression
          lists, and returns your data split into good, bad and invalid numbers. The results depend on the lists available at the time of the check. The Service
          is a tool to help your compliance work; it is not legal advice, and you remain responsible for complying with the Telephone Consumer Protection Act,
          the Telemarketing Sales Rule, state laws and any other rules that apply to your calls and messages.
        </p>
      </Section>

      <Section title="4. Acceptable use">
        <p>
          You may upload only data that you are allowed to process. You may not use the Service to harass anyone, to build lists for unlawful contact, to resell
          the suppression lists themselves, to probe or disrupt the Service, or to get around its limits. We may suspend accounts that break these rules.
        </p>
      </Section>

      <Section title="5. Plans and payment">
        <p>
          Plans are paid in advance by bank transfer, for a period of 30 days. A plan starts when we confirm that your transfer arrived and expires at the end
          of its 30-day period; it does not renew, and we never charge you automatically. To continue, choose a plan again and make a new transfer. We do not
          accept or store payment cards. The usage allowances of a plan (such as the numbers you may scrub or add to containers) apply per period and do not
          carry over.
        </p>
      </Section>

      <Section title="6. Ending your plan">
        <p>As nothing renews, there is nothing to cancel: a plan simply ends with its period. You keep access until the end of the period you have paid for.</p>
      </Section>

      <Section title="7. No refunds">
        <p>
          All fees are non-refundable, including for partial periods, unused allowances, downgrades and accounts closed before the end of a period, except where
          the law requires otherwise.
        </p>
      </Section>

      <Section title="8. Your data">
        <p>
          You keep all rights in the data you upload. You allow us to process it only to provide the Service to you. How we handle personal information is
          described in our{" "}
          <Link to="/privacy" className="text-blue-600 hover:underline">
            Privacy Policy
          </Link>
          .
        </p>
      </Section>

      <Section title="9. Disclaimer">
        <p>
          The Service is provided &quot;as is&quot; and &quot;as available&quot;. To the fullest extent the law allows, we disclaim all warranties, express or
          implied, including that the Service or any suppression list is complete, accurate, uninterrupted or fit for a particular purpose.
        </p>
      </Section>

      <Section title="10. Limitation of liability">
        <p>
          To the fullest extent the law allows, our total liability to you for all claims arising from or relating to the Service or these Terms is limited to
          ten US dollars ($10). We are not liable for indirect, incidental, special, consequential or punitive damages, or for lost profits, revenue or data,
          even if we were told they were possible.
        </p>
      </Section>

      <Section title="11. Governing law and arbitration">
        <p>
          These Terms are governed by the laws of the State of Florida, without regard to its conflict-of-law rules. Any dispute arising from or relating to
          these Terms or the Service will be resolved by final and binding arbitration in Florida, on an individual basis; class actions and class arbitrations
          are not permitted. Either party may bring an individual claim in small-claims court instead, and either party may seek an injunction in court to
          protect its intellectual property.
        </p>
      </Section>

      <Section title="12. Changes and termination">
        <p>
          We may change these Terms; we will tell you about material changes by e-mail or in the Service before they take effect. You may stop using the Service
          at any time. We may suspend or close accounts that break these Terms or leave invoices unpaid.
        </p>
      </Section>
    </LegalPage>
  );
}

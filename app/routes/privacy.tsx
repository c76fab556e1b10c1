import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { LegalPage, Section } from "~/components/legal-page";

export const meta: MetaFunction = () => [{ title: "Privacy Policy · Data Purging Tool" }];

export async function loader() {
  return null;
}

export default function Privacy() {
  return (
    <LegalPage title="Privacy Policy" updated="November 21, 2026">
      <p>
        This Privacy Policy explains what information Data Purging Tool (&quot;we&quot;) collects when you use our website, application and API (the
        &quot;Service&quot;), why we collect it, and the choices you have.
      </p>

      <Section title="1. Information we collect">
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>Account information:</strong> your name, e-mail address, company, phone number and role. We store your password only as a one-way hash.
          </li>
          <li>
            <strong>Billing information:</strong> your plan, payment references and transaction history. We do not store full card numbers.
          </li>
          <li>
            <strong>Data you upload:</strong> the phone lists and files you submit for scrubbing, your containers (your own suppression lists) and the result
            files.
          </li>
          <li>
            <strong>Usage and security data:</strong> sign-ins, the actions you take in the Service, IP addresses and technical logs.
          </li>
        </ul>
      </Section>

      <Section title="2. How we use it">
        <p>
          We use this information to run the Service: to create and secure your account, to scrub your lists, to enforce plan limits, to bill you, to send the
          e-mails the Service needs (account confirmation, password reset, invitations and payment receipts), to prevent abuse, and to meet our legal
          obligations. We do not sell your information and we do not use your uploaded lists for any purpose other than providing the Service to you.
        </p>
      </Section>

      <Section title="3. Cookies">
        <p>
          We use a strictly necessary session cookie to keep you signed in and a cookie that remembers whether the sidebar is open. We do not use advertising or
          tracking cookies.
        </p>
      </Section>

      <Section title="4. Sharing">
        <p>
          We share information only with service providers that help us run the Service (hosting, e-mail delivery, payment processing), under contracts that
          limit their use of it, and when the law requires it. Administrators of your organization can see the users of their team.
        </p>
      </Section>

      <Section title="5. Retention">
        <p>
          We keep account information while your account is open. Uploaded files and result files are kept so you can download them from your history, and
          deleted when you delete them or close your account, except where we must keep records for legal, tax or audit reasons.
        </p>
      </Section>

      <Section title="6. Security">
        <p>
          We protect your information with encryption in transit, hashed passwords and single-use, expiring links for account confirmation and password reset,
          access limited by role, and audit logs. No system is perfectly secure; please tell us at once if you suspect misuse of your account.
        </p>
      </Section>

      <Section title="7. Your choices and rights">
        <p>
          You can view and update your profile in the Service, and ask us for a copy of your information or for its deletion. Depending on where you live you
          may have further rights under the law; we will honor them.
        </p>
      </Section>

      <Section title="8. Children">
        <p>The Service is for people aged 18 and over. We do not knowingly collect information from children.</p>
      </Section>

      <Section title="9. Changes">
        <p>
          We may update this policy; we will tell you about material changes by e-mail or in the Service. See also our{" "}
          <Link to="/terms" className="text-blue-600 hover:underline">
            Terms of Service
          </Link>
          .
        </p>
      </Section>
    </LegalPage>
  );
}

import { Link } from 'wouter';
import styled from 'styled-components';
import {
  useCanChangePreferences,
  usePreferencesChanged,
  usePreferencesError,
  usePreferencesEvents,
  usePreferencesStatus,
  usePreferenceValues,
} from '../../machines/notificationPreferences/useNotificationPreferences.ts';
import { EMAIL_FREQUENCIES } from '../../schemas/notifications.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { LeaveConfirmDialog } from '../components/Dialog.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { FREQUENCY_TEXT, KIND_ORDER, KIND_TEXT } from '../notifications/notificationKinds.ts';
import { paths } from '../paths.ts';
import { Problem } from '../portfolios/Notices.tsx';
import { theme } from '../theme/theme.ts';
import { panelStyle } from '../components/cardStyles.ts';

export const SETTINGS_TITLE = 'Notification Settings';
export const SETTINGS_LOAD_FAILED = 'Your e-mail settings could not be loaded';
export const SETTINGS_SAVE_FAILED = 'Your e-mail settings could not be saved.';

const Form = styled.form`
  max-width: 760px;
  padding: ${theme.space.lg};
  ${panelStyle}
  @media ${theme.media.phone} {
    padding: ${theme.space.md};
  }
`;

const Intro = styled.p`
  max-width: 760px;
  margin: 0 0 ${theme.space.md};
`;

const Kind = styled.fieldset`
  margin: 0;
  padding: ${theme.space.md} 0;
  border: none;
  border-bottom: 1px solid ${theme.color.border};
  legend {
    float: left;
    width: 100%;
    padding: 0;
    font-weight: ${theme.font.weight.bold};
  }
`;

const KindRow = styled.div`
  clear: both;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space.xs} ${theme.space.md};
  p {
    margin: ${theme.space.xxs} 0 0;
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.sm};
  }
`;

const Choices = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.xs} ${theme.space.md};
  label {
    display: inline-flex;
    align-items: center;
    gap: ${theme.space.xs};
    min-height: 32px;
    cursor: pointer;
  }
  input {
    width: 18px;
    height: 18px;
    margin: 0;
    accent-color: ${theme.color.primary};
  }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.md};
  margin-top: ${theme.space.lg};
`;

const Status = styled.p<{ $tone: 'muted' | 'danger' }>`
  margin: 0;
  color: ${({ $tone }) => ($tone === 'danger' ? theme.color.danger : theme.color.textMuted)};
`;

function SettingsForm() {
  const values = usePreferenceValues();
  const status = usePreferencesStatus();
  const changed = usePreferencesChanged();
  const canChange = useCanChangePreferences();
  const error = usePreferencesError();
  const { change, submit, stay, leave } = usePreferencesEvents();
  if (!values) return null;
  return (
    <>
      <Form
        noValidate
        aria-label="E-mail settings"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {KIND_ORDER.map((kind) => {
          const descriptionId = `notification-kind-${kind}`;
          return (
            <Kind key={kind} aria-describedby={descriptionId}>
              <legend>{KIND_TEXT[kind].label}</legend>
              <KindRow>
                <p id={descriptionId}>{KIND_TEXT[kind].description}</p>
                <Choices>
                  {EMAIL_FREQUENCIES.map((frequency) => (
                    <label key={frequency}>
                      <input
                        type="radio"
                        name={`email-${kind}`}
                        value={frequency}
                        checked={values[kind] === frequency}
                        disabled={!canChange}
                        onChange={() => change(kind, frequency)}
                      />
                      {FREQUENCY_TEXT[frequency]}
                    </label>
                  ))}
                </Choices>
              </KindRow>
            </Kind>
          );
        })}
        <Actions>
          <BusyButton
            type="submit"
            busy={status === 'saving'}
            busyLabel="Saving your e-mail settings…"
            disabled={!changed || status === 'saving'}
          >
            Save
          </BusyButton>
          {status === 'saved' ? (
            <Status role="status" $tone="muted">
              Saved.
            </Status>
          ) : null}
          {status === 'saveFailed' ? (
            <Status role="alert" $tone="danger">
              {SETTINGS_SAVE_FAILED} {error?.message}
            </Status>
          ) : null}
        </Actions>
      </Form>
      {status === 'confirmingLeave' ? <LeaveConfirmDialog onStay={stay} onLeave={leave} /> : null}
    </>
  );
}

/**
 * Notification Settings: for each kind of notification, whether it is e-mailed immediately, in the
 * daily digest, or not at all (the feed shows every notification whatever is chosen). Leaving with
 * unsaved choices asks first.
 */
export function NotificationSettingsPage() {
  const status = usePreferencesStatus();
  const error = usePreferencesError();
  const { retry } = usePreferencesEvents();
  return (
    <>
      <PageHeading title={SETTINGS_TITLE}>
        <Link href={paths.notifications}>See your notifications</Link>
      </PageHeading>
      <Intro>
        Choose which notifications PracticeFolio also sends you by e-mail: each one at once, or together in one e-mail a
        day. The bell in the header shows all of them whatever you choose here.
      </Intro>
      {status === 'loading' ? <PageSkeleton label="Loading your e-mail settings" /> : null}
      {status === 'loadFailed' ? (
        <Problem title={SETTINGS_LOAD_FAILED} message={error?.message} onRetry={retry} />
      ) : null}
      {status !== 'loading' && status !== 'loadFailed' && status !== 'leaving' ? <SettingsForm /> : null}
    </>
  );
}

import { createActorContext } from '../shared/actorReact.ts';
import type { SignInMethods, SignInProvider } from '../../schemas/sso.ts';
import type { ProviderLogout } from '../../services/logout.ts';
import { loginMachine, SSO_MESSAGES, type LoginField, type LoginFieldErrors, type LoginInput } from './loginMachine.ts';

/** The login form's actor; the app provides it with `logic={loginMachine.provide(...)}`. */
export const LoginActorContext = createActorContext(loginMachine);

/** The form as the view shows it. */
export interface LoginFormView {
  email: string;
  password: string;
  fieldErrors: LoginFieldErrors;
  /** "Keep me signed in" is ticked. */
  remember: boolean;
  /** A request is on its way (or the user is being let in): the form waits. */
  busy: boolean;
  /** Why the last attempt failed (shown under the form). */
  failure: string | null;
  /** The school accounts' buttons ("Sign in with <label>"), above the form. */
  providers: readonly SignInProvider[];
  /** Whether the e-mail and password form is shown. */
  passwordLogin: boolean;
  /** The provider's own sign-out offered after a logout ("Also sign out of <label>"). */
  providerLogout: ProviderLogout | null;
}

/**
 * The login page's input from its address (`?sso=<code>` after a refused sign-in at a provider),
 * the provider's sign-out the logout before this page load offered, and the ways to sign in the
 * page came with.
 */
export function loginInputOf(
  search: string,
  providerLogout: ProviderLogout | null = null,
  methods: SignInMethods | null = null,
): LoginInput {
  const code = new URLSearchParams(search).get('sso');
  return {
    ssoError: code !== null && Object.hasOwn(SSO_MESSAGES, code) ? (code as keyof typeof SSO_MESSAGES) : null,
    providerLogout,
    methods,
  };
}

const FIELD_ORDER: readonly LoginField[] = ['email', 'password'];
const NO_PROVIDERS: readonly SignInProvider[] = [];

/** The form's values, field messages and busy flag. */
export function useLoginForm(): LoginFormView {
  const email = LoginActorContext.useSelector((s) => s.context.email);
  const password = LoginActorContext.useSelector((s) => s.context.password);
  const fieldErrors = LoginActorContext.useSelector((s) => s.context.fieldErrors);
  const remember = LoginActorContext.useSelector((s) => s.context.remember);
  const busy = LoginActorContext.useSelector((s) => s.hasTag('busy'));
  const failure = LoginActorContext.useSelector((s) => s.context.failure);
  const methods = LoginActorContext.useSelector((s) => s.context.methods);
  const providerLogout = LoginActorContext.useSelector((s) => s.context.providerLogout);
  return {
    email,
    password,
    fieldErrors,
    remember,
    busy,
    failure,
    providers: methods?.providers ?? NO_PROVIDERS,
    passwordLogin: methods?.passwordLogin ?? true,
    providerLogout,
  };
}

/** What the login view may ask. */
export function useLoginEvents() {
  const actor = LoginActorContext.useActorRef();
  return {
    change: (field: LoginField, value: string) => actor.send({ type: 'field.change', field, value }),
    /** Ticks or clears "keep me signed in". */
    setRemember: (value: boolean) => actor.send({ type: 'remember.change', value }),
    /** Leaves for a school account's provider. */
    startSso: (provider: string) => actor.send({ type: 'sso.start', provider }),
    /** Leaves for the provider's own sign-out. */
    followProviderLogout: () => actor.send({ type: 'providerLogout.follow' }),
    /** Sends the form; answers the first field that needs fixing, if the form was refused. */
    submit: (): LoginField | null => {
      actor.send({ type: 'login.submit' });
      const { fieldErrors } = actor.getSnapshot().context;
      return FIELD_ORDER.find((field) => fieldErrors[field]) ?? null;
    },
  };
}

// Client-side checks of the login and sign-up forms, before anything is sent.

export type LoginInput = { email: string; password: string };
export type LoginErrors = Partial<Record<keyof LoginInput, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The address's problem, if it has one. */
export function validateEmail(email: string): string | undefined {
  if (!email.trim()) return "Please enter your email address.";
  if (!EMAIL.test(email.trim())) return "Please enter a valid email address.";
  return undefined;
}

export function validateLogin(input: LoginInput): LoginErrors {
  const errors: LoginErrors = {};
  const email = validateEmail(input.email);
  if (email) errors.email = email;
  if (!input.password) errors.password = "Please enter your password.";
  return errors;
}

export type SignUpInput = LoginInput & { firstName: string; lastName: string; role: "creator" | "expert" | "" };
export type SignUpErrors = Partial<Record<keyof SignUpInput, string>>;

/** The server's strength rule: 8 to 200 characters with a letter and a digit. */
export function isWeakPassword(password: string): boolean {
  return password.length < 8 || password.length > 200 || !/\p{L}/u.test(password) || !/\p{Nd}/u.test(password);
}

export function validateSignUp(input: SignUpInput): SignUpErrors {
  const errors: SignUpErrors = { ...validateLogin(input) };
  if (!input.role) errors.role = "Please choose whether you are a creator or an expert.";
  if (!input.firstName.trim() || !input.lastName.trim()) errors.firstName = "First and Last name are required.";
  if (input.password && isWeakPassword(input.password)) errors.password = "Password is too weak. Please choose a stronger one.";
  return errors;
}

export type NewPasswordErrors = { password?: string; confirm?: string };

/** A new password typed twice (changing it, or resetting it from a mail). */
export function validateNewPassword(password: string, confirm: string): NewPasswordErrors {
  if (!password) return { password: "Please enter a new password." };
  if (isWeakPassword(password)) return { password: "Password is too weak. Please choose a stronger one." };
  if (password !== confirm) return { confirm: "Passwords do not match." };
  return {};
}

/** What the password fields say under them until something is wrong. */
export const PASSWORD_RULE = "At least 8 characters, with a letter and a digit.";

/** A new password's hint: the rule stays on screen beside what is wrong with it (issue 27.5). */
export const passwordHelp = (error: string | undefined): string => (error ? `${error} ${PASSWORD_RULE}` : PASSWORD_RULE);

// Client-side checks of the login and sign-up forms, before anything is sent.

export type LoginInput = { email: string; password: string };
export type LoginErrors = Partial<Record<keyof LoginInput, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateLogin(input: LoginInput): LoginErrors {
  const errors: LoginErrors = {};
  if (!input.email.trim()) errors.email = "Please enter your email address.";
  else if (!EMAIL.test(input.email.trim())) errors.email = "Please enter a valid email address.";
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

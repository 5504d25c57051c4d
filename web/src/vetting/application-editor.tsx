import { useState, type ChangeEvent, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { EXPERT_STANDARDS, EXPERT_STANDARDS_VERSION, type ApplicationReply } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import {
  applicationInputFrom,
  BIO_MAX,
  BIO_MIN,
  checkApplication,
  LINKS_MAX,
  type ApplicationBody,
  type ApplicationErrors,
  type ApplicationInput,
} from "./application-form.ts";
import { APPLICATION_KEY } from "./vetting-queries.ts";

type TextKey = Exclude<keyof ApplicationInput, "agreed">;

/** The application's answers and the standards to agree to; a resubmission starts from the answers sent last. */
export function ApplicationEditor({ application }: { application: ApplicationReply }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ApplicationInput>(() => applicationInputFrom(application.answers));
  const [errors, setErrors] = useState<ApplicationErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const submit = useMutation({
    mutationFn: (body: ApplicationBody) => api.post<ApplicationReply>("/experts/me/application", body),
    onMutate: () => setFailure(null),
    onSuccess: (reply) => {
      queryClient.setQueryData(APPLICATION_KEY, reply);
      void queryClient.invalidateQueries({ queryKey: ["expert-me"] });
    },
    // The server is the judge: its message is shown as it is.
    onError: (error) => setFailure(errorMessage(error)),
  });
  // The page shows the standards it was built with; a newer text on the server must be read before it is agreed to.
  const standardsChanged = application.standards_version !== EXPERT_STANDARDS_VERSION;
  const resubmitting = application.answers !== null;

  const set = (field: TextKey) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const send = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const check = checkApplication(form);
    setErrors(check.ok ? {} : check.errors);
    if (check.ok) submit.mutate(check.body);
  };

  const bioLength = form.bio.trim().length;
  return (
    <Box component="form" noValidate aria-label="Your application" onSubmit={send} sx={{ display: "grid", gap: 2, maxWidth: 760 }}>
      {failure && (
        <Alert severity="error" role="alert">
          <AlertTitle>Your application was not sent</AlertTitle>
          {failure}
        </Alert>
      )}
      <TextField
        label="Your expertise"
        required
        value={form.expertise}
        onChange={set("expertise")}
        error={!!errors.expertise}
        helperText={errors.expertise ?? "The field you advise creators on, e.g. brand partnerships."}
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
      <TextField
        label="Title"
        required
        value={form.title}
        onChange={set("title")}
        error={!!errors.title}
        helperText={errors.title ?? "As creators will see it, e.g. Brand Partnerships Advisor."}
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
      <TextField
        label="Bio"
        required
        multiline
        minRows={5}
        value={form.bio}
        onChange={set("bio")}
        error={!!errors.bio}
        helperText={
          errors.bio ?? `${bioLength.toLocaleString("en-US")} / ${BIO_MAX.toLocaleString("en-US")} characters (at least ${BIO_MIN}).`
        }
      />
      <TextField
        label="Links to your work"
        required
        multiline
        minRows={2}
        value={form.links}
        onChange={set("links")}
        error={!!errors.links}
        helperText={errors.links ?? `One per line, up to ${LINKS_MAX}: your website, portfolio or social profiles (http:// or https://).`}
      />
      <TextField
        label="Years of experience"
        required
        type="number"
        value={form.yearsOfExperience}
        onChange={set("yearsOfExperience")}
        error={!!errors.yearsOfExperience}
        helperText={errors.yearsOfExperience}
        slotProps={{ htmlInput: { min: 0, max: 80, step: 1, inputMode: "numeric" } }}
        sx={{ maxWidth: 240 }}
      />
      <TextField
        label="What creators can expect from a session with you"
        required
        multiline
        minRows={3}
        value={form.creatorsCanExpect}
        onChange={set("creatorsCanExpect")}
        error={!!errors.creatorsCanExpect}
        helperText={errors.creatorsCanExpect}
        slotProps={{ htmlInput: { maxLength: 2_000 } }}
      />
      <Box component="fieldset" sx={{ border: 1, borderColor: "divider", borderRadius: 2, p: 2, m: 0 }}>
        <Typography component="legend" sx={{ px: 1 }}>
          Expert standards
        </Typography>
        <Typography sx={{ mb: 1 }}>Every expert on the marketplace agrees to:</Typography>
        <Box component="ul" aria-label="Expert standards" sx={{ mt: 0, pl: 3 }}>
          {EXPERT_STANDARDS.map((line) => (
            <li key={line}>
              <Typography>{line}</Typography>
            </li>
          ))}
        </Box>
        <FormControlLabel
          control={
            <Checkbox
              checked={form.agreed}
              onChange={(e) => setForm((f) => ({ ...f, agreed: e.target.checked }))}
              slotProps={{ input: { "aria-describedby": errors.standardsVersion ? "standards-error" : undefined } }}
            />
          }
          label="I agree to the expert standards"
        />
        {errors.standardsVersion && (
          <FormHelperText id="standards-error" error>
            {errors.standardsVersion}
          </FormHelperText>
        )}
      </Box>
      {standardsChanged && (
        <Alert severity="warning">Our expert standards have changed since this page was loaded. Please reload the page to read them.</Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={submit.isPending || standardsChanged}>
          {resubmitting ? "Resubmit application" : "Submit application"}
        </Button>
      </Box>
    </Box>
  );
}

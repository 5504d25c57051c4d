import { Box } from "@mui/material";
import { useRecordContext } from "react-admin";

/** A value as indented JSON, readable and selectable. */
export function JsonBlock({ value, testId }: { value: unknown; testId?: string }) {
  return (
    <Box
      component="pre"
      data-testid={testId}
      sx={{
        m: 0,
        p: 1.5,
        bgcolor: "action.hover",
        borderRadius: 1,
        fontSize: 13,
        lineHeight: 1.45,
        overflowX: "auto",
        whiteSpace: "pre-wrap",
        wordBreak: "break-word",
        maxWidth: "100%",
      }}
    >
      {JSON.stringify(value ?? null, null, 2)}
    </Box>
  );
}

/** The record's `source` field as indented JSON. */
export function JsonField({ source }: { source: string; label?: string }) {
  const record = useRecordContext();
  return <JsonBlock value={record?.[source]} />;
}

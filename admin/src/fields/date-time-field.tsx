import { DateField } from "react-admin";

/** A moment with its date and time (the browser's locale and zone). */
export function DateTimeField({ source }: { source: string; label?: string; sortable?: boolean }) {
  return <DateField source={source} showTime options={{ dateStyle: "medium", timeStyle: "short" }} emptyText="—" />;
}

import PeopleIcon from "@mui/icons-material/People";
import { UserList } from "./user-list.tsx";
import type { User } from "./user-record.ts";
import { UserShow } from "./user-show.tsx";

export default {
  list: UserList,
  show: UserShow,
  icon: PeopleIcon,
  recordRepresentation: (u: User) => u.email,
};

import { Link as RouterLink } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import { currencyOf, moneyText } from "../shared/money.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { useExpertSessions } from "./dashboard-queries.ts";

export const sessionStatusLabel = (status: string) => (status === "published" ? "Live" : status === "draft" ? "Draft" : status);

export function SessionsTab({ expertId }: { expertId: string | null }) {
  const sessions = useExpertSessions(expertId);
  return (
    <Box>
      <Box sx={{ mb: 2 }}>
        {expertId ? (
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/edit-session">
            Add New Session
          </Button>
        ) : (
          <Button variant="contained" startIcon={<AddIcon />} disabled>
            Add New Session
          </Button>
        )}
      </Box>
      {!expertId ? (
        <Typography>Complete your Expert Profile to unlock session creation.</Typography>
      ) : sessions.isPending ? (
        <LoadingScreen />
      ) : sessions.isError ? (
        <Alert severity="error">Your sessions could not be loaded.</Alert>
      ) : sessions.data.length === 0 ? (
        <Typography>Your sessions will appear here once you have created them.</Typography>
      ) : (
        <TableContainer>
          <Table aria-label="Your sessions">
            <TableHead>
              <TableRow>
                <TableCell>Status</TableCell>
                <TableCell>Title</TableCell>
                <TableCell>Price</TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>Description</TableCell>
                <TableCell>
                  <span className="visually-hidden">Actions</span>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {sessions.data.map((s) => (
                <TableRow key={s.id}>
                  <TableCell>
                    <Chip
                      size="small"
                      label={sessionStatusLabel(s.status)}
                      color={s.status === "published" ? "success" : "default"}
                      sx={{ transition: "none", ...(s.status === "published" && { bgcolor: "success.dark", color: "common.white" }) }}
                    />
                  </TableCell>
                  <TableCell>{s.title}</TableCell>
                  <TableCell>{moneyText(Math.round(s.price * 100), currencyOf(s), { short: true })}</TableCell>
                  <TableCell sx={{ maxWidth: 360, display: { xs: "none", sm: "table-cell" } }}>
                    {s.description || (
                      <Typography component="span" variant="inherit" color="text.secondary">
                        Add a description so creators know what to expect.
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Link component={RouterLink} to={`/edit-session/${s.id}`} aria-label={`Edit ${s.title}`}>
                      Edit
                    </Link>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}

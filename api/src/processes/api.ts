import { apiConfig, loadConfig, warnOfDevelopmentSecret } from "../main/config.ts";
import { runApi } from "../main/server.ts";
import { stopOnSignals } from "./lifecycle.ts";

// The API process of the production topology: stateless, several may run side by side.

const config = loadConfig("api", apiConfig);
warnOfDevelopmentSecret("api", config);
const api = await runApi(config, { logger: true });
stopOnSignals("api", api.stop);

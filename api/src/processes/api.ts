import { apiConfig, loadConfig, warnOfDevelopmentSecret } from "../main/config.ts";
import { runApi } from "../main/server.ts";
import { stopOnSignals } from "./lifecycle.ts";
import { startProcessTracing } from "../tracing/index.ts";

// Traces by OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 35.3); off, no SDK is registered.
startProcessTracing("booking-api");

// The API process of the production topology: stateless, several may run side by side.

const config = loadConfig("api", apiConfig);
warnOfDevelopmentSecret("api", config);
const api = await runApi(config, { logger: true });
stopOnSignals("api", api.stop);

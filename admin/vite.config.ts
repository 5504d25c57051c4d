import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The admin console, served by the API at /admin/ once built (`npm run build -w admin`).
// `npm run dev -w admin` serves it on its own and sends /api to an API on port 3000.
export default defineConfig({
  base: "/admin/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // react-admin and MUI make one large bundle; it is an internal tool, loaded once.
    chunkSizeWarningLimit: 3000,
  },
  server: {
    proxy: { "/api": { target: process.env.API_URL ?? "http://localhost:3000", changeOrigin: true } },
  },
});

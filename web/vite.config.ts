import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The creator and expert web app. `npm start` (the API) serves the build in dist/ at `/`;
// `vite` (dev) forwards the API to a running `npm start`.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    proxy: {
      "/api": { target: "http://localhost:3000", changeOrigin: true },
    },
  },
});

/** A desktop popup: what the user sees, and what it is about so a click can open it. */
export interface Popup {
  title: string;
  body: string;
  /** The dashboard route the popup leads to, e.g. "/monitors/12". */
  route?: string;
}

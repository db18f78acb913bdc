import { useSessionUser } from '../../../app/auth';
import { UserDialog } from './UserDialog';

/** The account menu's profile: the signed-in user edits their own name, email and password. */
export function ProfileDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const me = useSessionUser();
  return <UserDialog open={open} onClose={onClose} user={me} mode="self" />;
}

import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AllInclusiveIcon from '@mui/icons-material/AllInclusive';
import AnnouncementIcon from '@mui/icons-material/Announcement';
import ApartmentIcon from '@mui/icons-material/Apartment';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import AttachMoneyIcon from '@mui/icons-material/AttachMoney';
import CampaignIcon from '@mui/icons-material/Campaign';
import CardMembershipIcon from '@mui/icons-material/CardMembership';
import ChecklistIcon from '@mui/icons-material/Checklist';
import CodeIcon from '@mui/icons-material/Code';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DeviceHubIcon from '@mui/icons-material/DeviceHub';
import EventIcon from '@mui/icons-material/Event';
import FlashOnIcon from '@mui/icons-material/FlashOn';
import ForumIcon from '@mui/icons-material/Forum';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import ListAltIcon from '@mui/icons-material/ListAlt';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import PeopleIcon from '@mui/icons-material/People';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import SettingsIcon from '@mui/icons-material/Settings';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import ViewKanbanIcon from '@mui/icons-material/ViewKanban';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import type { MenuIcon } from './menu';

export const MENU_ICONS: Record<MenuIcon, typeof DashboardIcon> = {
  dashboard: DashboardIcon,
  tickets: WhatsAppIcon,
  quickMessages: FlashOnIcon,
  kanban: ViewKanbanIcon,
  contacts: ContactPhoneIcon,
  schedules: EventIcon,
  tags: LocalOfferIcon,
  chats: ForumIcon,
  todolist: ChecklistIcon,
  helps: HelpOutlineIcon,
  simulator: PhoneAndroidIcon,
  campaigns: CampaignIcon,
  contactLists: ListAltIcon,
  campaignsConfig: SettingsIcon,
  announcements: AnnouncementIcon,
  prompts: AllInclusiveIcon,
  integrations: DeviceHubIcon,
  connections: SyncAltIcon,
  files: AttachFileIcon,
  queues: AccountTreeIcon,
  users: PeopleIcon,
  messagesApi: CodeIcon,
  financial: AttachMoneyIcon,
  settings: SettingsIcon,
  companies: ApartmentIcon,
  plans: CardMembershipIcon,
};
